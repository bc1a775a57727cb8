// The report page's script, inlined into the page: it reads the report's
// JSON from the page itself (no network, so the page works from file:// and
// behind serve), draws the matrix, applies the filters and opens a cell's
// detail from the URL fragment (`#cell/<target>/<tool ID>`), so that every
// cell has a stable address and the browser's back button closes a detail.
// Plain ES2017 in a raw string: no build step, no backslash lost.

/** The page's script. */
export const PAGE_SCRIPT: string = String.raw`(function () {
"use strict";
var data = JSON.parse(document.getElementById("report-data").textContent);
var $ = function (id) { return document.getElementById(id); };
var ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
function esc(s) { return String(s).replace(/[&<>"']/g, function (c) { return ESC[c]; }); }
var SIGN = { exact: "\u2713", lossy: "\u2248", refused: "\u2717" };
var EFFECT = { widens: "now accepts more values", narrows: "now accepts fewer values",
  none: "accepts the same values" };
var nT = data.targets.length;
var lastCell = null;
function entry(row, col) { return data.entries[row * nT + col]; }
function fragment(target, tool) { return "#cell/" + target + "/" + encodeURIComponent(tool); }
function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

function renderMatrix() {
  var head = ['<tr><th scope="col">Tool</th>'];
  data.targets.forEach(function (t, col) {
    var c = data.summary[t.id];
    head.push('<th scope="col" data-col="' + col + '">' + esc(t.label) + '<span class="counts">' +
      c.exact + " exact \u00b7 " + c.lossy + " lossy \u00b7 " + c.refused + " refused</span></th>");
  });
  $("matrix-head").innerHTML = head.join("") + "</tr>";
  var rows = [];
  data.tools.forEach(function (tool, row) {
    var meta = [];
    if (tool.server) meta.push("server " + esc(tool.server));
    if (tool.version) meta.push("version " + esc(tool.version));
    if (tool.digest) meta.push("locked " + esc(tool.digest.slice(0, 19)));
    var html = ['<tr data-row="' + row + '"><th scope="row">' + esc(tool.id) +
      (meta.length ? "<small>" + meta.join(" \u00b7 ") + "</small>" : "") + "</th>"];
    for (var col = 0; col < nT; col++) {
      var e = entry(row, col);
      var n = e.status === "refused" ? (e.problems || []).length : e.warnings.length;
      var what = e.status === "refused" ? plural(n, "reason") : plural(n, "warning");
      html.push('<td data-col="' + col + '" class="s-' + e.status + '"><a href="' +
        esc(fragment(e.target, e.tool)) + '" aria-label="' + esc(tool.id + " on " +
        data.targets[col].label + ": " + e.status + (n ? ", " + what : "")) + '">' +
        SIGN[e.status] + " " + e.status + (n ? ' <span class="n">' + n + "</span>" : "") +
        "</a></td>");
    }
    rows.push(html.join("") + "</tr>");
  });
  $("matrix-body").innerHTML = rows.join("");
}

function apply() {
  var target = $("f-target").value;
  var only = $("f-lossy").checked;
  var q = $("f-search").value.trim().toLowerCase();
  var table = $("matrix");
  table.classList.toggle("only-lossy", only);
  var cols = data.targets.map(function (t) { return target === "" || t.id === target; });
  var heads = $("matrix-head").querySelectorAll("th[data-col]");
  for (var i = 0; i < heads.length; i++) heads[i].hidden = !cols[i];
  var trs = $("matrix-body").rows;
  var shown = 0;
  for (var row = 0; row < trs.length; row++) {
    var tr = trs[row];
    var cells = tr.cells;
    var keep = q === "" || data.tools[row].id.toLowerCase().indexOf(q) !== -1;
    var any = false;
    for (var col = 0; col < nT; col++) {
      cells[col + 1].hidden = !cols[col];
      if (cols[col] && entry(row, col).status !== "exact") any = true;
    }
    if (only && !any) keep = false;
    tr.hidden = !keep;
    if (keep) shown++;
  }
  $("shown").textContent = "Showing " + plural(shown, "tool") + " of " + data.tools.length;
}

function renderJson(value, marks) {
  function wrap(p, html) {
    var m = marks[p];
    if (!m) return html;
    return '<mark class="m-' + m.kind + '" data-pointer="' + esc(p) + '" data-label="' +
      m.labels.join(",") + '" title="' + esc(m.title.join("; ")) + '">' + html + "</mark>";
  }
  function node(v, p, ind) {
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      return "[\n" + v.map(function (x, i) {
        return ind + "  " + wrap(p + "/" + i, node(x, p + "/" + i, ind + "  "));
      }).join(",\n") + "\n" + ind + "]";
    }
    if (v !== null && typeof v === "object") {
      var keys = Object.keys(v);
      if (keys.length === 0) return "{}";
      return "{\n" + keys.map(function (k) {
        var q = p + "/" + k.replace(/~/g, "~0").replace(/\//g, "~1");
        return ind + "  " + wrap(q, esc(JSON.stringify(k)) + ": " + node(v[k], q, ind + "  "));
      }).join(",\n") + "\n" + ind + "}";
    }
    return esc(JSON.stringify(v));
  }
  return wrap("", node(value, "", ""));
}

function addMark(marks, p, kind, label, title) {
  var m = marks[p] || (marks[p] = { kind: kind, labels: [], title: [] });
  if (kind === "refused") m.kind = kind;
  m.labels.push(label);
  m.title.push(title);
}

function openCell(targetId, toolId, focus) {
  var col = -1, row = -1;
  data.targets.forEach(function (t, i) { if (t.id === targetId) col = i; });
  data.tools.forEach(function (t, i) { if (t.id === toolId) row = i; });
  if (col < 0 || row < 0) return closeDetail(false);
  var e = entry(row, col), tool = data.tools[row], target = data.targets[col];
  var left = {}, right = {}, out = [];
  out.push('<button type="button" class="close" id="detail-close">Close<span class="visually-hidden"> detail</span></button>');
  out.push('<h2 id="detail-title" tabindex="-1">' + esc(tool.id) + " on " + esc(target.label) +
    ' <span class="badge s-' + e.status + '">' + SIGN[e.status] + " " + e.status + "</span></h2>");
  out.push("<dl><dt>Provider name</dt><dd><code>" + esc(e.name.provider) + "</code>" +
    (e.name.renamed ? " (the ID <code>" + esc(tool.id) + "</code> is renamed" +
      (e.name.needsMap ? "; only the request's name map turns it back into the ID)" : ")") : " (unchanged)") +
    "</dd>");
  if (tool.server) out.push("<dt>Server</dt><dd>" + esc(tool.server) + "</dd>");
  if (tool.version) out.push("<dt>Version</dt><dd>" + esc(tool.version) + "</dd>");
  if (tool.digest) out.push("<dt>Locked</dt><dd><code>" + esc(tool.digest) + "</code></dd>");
  if (e.strict) {
    out.push("<dt>Strict mode</dt><dd>" + (e.strict.applied ? "applied" : "not applied") +
      " (asked: " + esc(String(e.strict.requested)) + ")" + (e.strict.reasons.length ?
      ": " + esc(e.strict.reasons.join("; ")) : "") + "</dd>");
  }
  out.push("</dl>");
  if (e.problems && e.problems.length) {
    out.push('<section class="refusal" aria-labelledby="refusal-title"><h3 id="refusal-title">Why ' +
      esc(target.label) + " refuses it</h3><ol>");
    e.problems.forEach(function (p, i) {
      var label = "R" + (i + 1);
      addMark(e.converted === undefined ? left : right, p.path, "refused", label, p.message);
      out.push('<li id="reason-' + (i + 1) + '"><strong>[' + label + "]</strong> <code>" +
        esc(p.path || "/") + "</code> (" + esc(p.code) + "): " + esc(p.message) +
        '<br><span class="fix">To pass: ' + esc(p.fix) + "</span></li>");
    });
    out.push("</ol></section>");
  }
  out.push("<h3>" + (e.warnings.length ? plural(e.warnings.length, "warning") :
    "No warning: nothing was dropped or rewritten") + "</h3>");
  if (e.warnings.length) {
    out.push("<ol>");
    e.warnings.forEach(function (w, i) {
      var label = String(i + 1);
      addMark(left, w.path, w.action, label, w.feature + " " + w.action);
      if (w.convertedPath !== undefined) addMark(right, w.convertedPath, w.action, label, w.feature + " " + w.action);
      out.push("<li><strong>[" + label + "]</strong> <code>" + esc(w.path) + "</code>: <em>" +
        esc(w.feature) + "</em> " + esc(w.action.replace(/-/g, " ")) + "; the schema " +
        EFFECT[w.effect] + ". " + esc(w.message) + "</li>");
    });
    out.push("</ol>");
  }
  out.push('<div class="sides"><figure><figcaption>Canonical tool (MCP form)</figcaption><pre tabindex="0">' +
    renderJson(tool.canonical, left) + "</pre></figure>");
  out.push("<figure><figcaption>Converted for " + esc(target.label) + '</figcaption><pre tabindex="0">' +
    (e.converted === undefined ? "(no conversion)" : renderJson(e.converted, right)) +
    "</pre></figure></div>");
  var detail = $("detail");
  detail.innerHTML = out.join("");
  detail.hidden = false;
  $("detail-close").addEventListener("click", function () { closeDetail(true); });
  if (lastCell) lastCell.removeAttribute("aria-current");
  lastCell = $("matrix-body").rows[row].cells[col + 1].firstChild;
  lastCell.setAttribute("aria-current", "true");
  if (focus) $("detail-title").focus();
}

function closeDetail(returnFocus) {
  var detail = $("detail");
  var wasOpen = !detail.hidden;
  detail.hidden = true;
  detail.innerHTML = "";
  if (wasOpen && location.hash.indexOf("#cell/") === 0) history.pushState(null, "", "#matrix");
  if (returnFocus && lastCell) lastCell.focus();
}

function fromHash(focus) {
  var m = /^#cell\/([^/]+)\/(.+)$/.exec(location.hash);
  if (!m) return closeDetail(false);
  openCell(m[1], decodeURIComponent(m[2]), focus);
}

renderMatrix();
["f-target", "f-lossy", "f-search"].forEach(function (id) {
  $(id).addEventListener(id === "f-target" ? "change" : "input", apply);
});
$("f-lossy").addEventListener("change", apply);
apply();
window.addEventListener("hashchange", function () { fromHash(true); });
document.addEventListener("keydown", function (ev) {
  if (ev.key === "Escape" && !$("detail").hidden) closeDetail(true);
});
fromHash(true);
document.documentElement.setAttribute("data-ready", "true");
})();`;
