// The report page in a real browser (headless Chromium, from file://):
// after its script ran the DOM holds every tool and target, a refused cell
// opens its reason (by keyboard), a cell's URL fragment opens its detail with
// the losses marked, the filters hide exact cells, columns and rows, the
// screenshot is not blank, and the page passes axe-core's WCAG 2 A/AA rules
// plus our own checks (labels, contrast ratios, focus order).
import assert from "node:assert/strict";
import axe from "axe-core";
import { buildLossReport } from "../../cli/commands/_report/entries.ts";
import { reportPage } from "../../cli/commands/_report/page.ts";
import type { Tool } from "../../model/tool.ts";
import { chromium, contrast, Page, pngStats } from "./_chromium.ts";
import { nested } from "./_report_fixtures.ts";

const browser = await chromium();
const skip = "missing" in browser;
if (skip) console.warn(`SKIPPED the report's browser tests: ${browser.missing}`);

const tools: Tool[] = [
  {
    name: "add",
    namespace: "math",
    inputSchema: { type: "object", properties: { a: { type: "number" } } },
  },
  {
    name: "slug",
    namespace: "text",
    inputSchema: {
      type: "object",
      properties: { s: { type: "string", minLength: 3 } },
      required: ["s"],
      additionalProperties: false,
    },
  },
  { name: "nest", namespace: "deep", inputSchema: nested(12) },
];
const IDS = ["math:add", "text:slug", "deep:nest"];
const TARGETS = ["openai", "openai --strict", "openai-responses", "anthropic", "gemini", "mcp"];

async function pageFile(): Promise<string> {
  const report = buildLossReport({
    manifest: "browser.yaml",
    generatedAt: "2026-01-01T00:00:00.000Z",
    tools: tools.map((tool, i) => ({ id: IDS[i], tool })),
  });
  const dir = await Deno.makeTempDir({ prefix: "tf-report-" });
  await Deno.writeTextFile(`${dir}/report.html`, reportPage(report));
  return `file://${dir}/report.html`;
}

/** Text of the elements a selector finds, as the page shows them. */
const texts = (selector: string) =>
  `[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => e.textContent.trim())`;
/** How many elements a selector finds that are visible. */
const visible = (selector: string) =>
  `[...document.querySelectorAll(${JSON.stringify(selector)})]` +
  `.filter((e) => e.checkVisibility({ visibilityProperty: true })).length`;

Deno.test({
  name:
    "report page in Chromium: matrix, refusal detail, fragments, filters, screenshot, accessibility",
  ignore: skip,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const url = await pageFile();
    const page = await Page.launch((browser as { path: string }).path);
    try {
      await page.open(url);

      await t.step("the DOM after the script ran holds every tool and every target", async () => {
        assert.deepEqual(await page.evaluate(texts("#matrix-body th")), IDS);
        const heads = await page.evaluate<string[]>(texts("#matrix-head th[data-col]"));
        assert.deepEqual(heads.map((h) => h.replace(/\d+ exact.*$/, "")), TARGETS);
        assert.equal(
          await page.evaluate(`document.querySelectorAll("#matrix-body td a").length`),
          18,
        );
        assert.equal(
          await page.evaluate(`document.getElementById("manifest-name").textContent`),
          "browser.yaml",
        );
      });

      await t.step(
        "a refused cell opened by keyboard shows its reason and what would make it pass",
        async () => {
          await page.evaluate(
            `document.querySelector('a[href="#cell/openai/deep%3Anest"]').focus()`,
          );
          await page.press("Enter");
          await page.waitFor(`!document.getElementById("detail").hidden`);
          const detail = await page.evaluate<string>(`document.getElementById("detail").innerText`);
          assert.match(detail, /deep:nest on openai/);
          assert.match(detail, /Why openai refuses it/);
          assert.match(detail, /limit_exceeded\): the nesting depth is 12; openai allows 10/);
          assert.match(detail, /To pass: make the schema smaller/);
          assert.equal(await page.evaluate(`location.hash`), "#cell/openai/deep%3Anest");
          assert.equal(await page.evaluate(`document.activeElement.id`), "detail-title");
          await page.press("Escape");
          await page.waitFor(`document.getElementById("detail").hidden`);
          assert.equal(
            await page.evaluate(`document.activeElement.getAttribute("href")`),
            "#cell/openai/deep%3Anest",
          );
        },
      );

      await t.step(
        "a cell's URL fragment opens its detail, the losses marked at their pointers",
        async () => {
          await page.open(
            `${url}#cell/openai-strict/text%3Aslug`,
            `!document.getElementById("detail").hidden`,
          );
          const left = await page.evaluate<string[]>(
            `[...document.querySelectorAll("#detail figure:first-child mark")].map((m) => m.dataset.pointer)`,
          );
          assert.ok(left.includes("/inputSchema/properties/s/minLength"), left.join(" "));
          const right = await page.evaluate<string[]>(
            `[...document.querySelectorAll("#detail figure:last-child mark")].map((m) => m.dataset.pointer)`,
          );
          assert.ok(right.includes("/function/parameters/properties/s"), right.join(" "));
          assert.match(
            await page.evaluate<string>(`document.getElementById("detail").innerText`),
            /minLength moved to description; the schema now accepts more values/,
          );
        },
      );

      await t.step(
        "the filters: only lossy hides exact cells, a target hides the other columns, search the rows",
        async () => {
          await page.open(url);
          assert.ok(await page.evaluate<number>(visible("td.s-exact a")) > 0);
          await page.evaluate(`document.getElementById("f-lossy").click()`);
          assert.equal(await page.evaluate(visible("td.s-exact a")), 0);
          assert.equal(
            await page.evaluate(visible("td.s-lossy a")),
            await page.evaluate(`document.querySelectorAll("td.s-lossy a").length`),
          );
          await page.evaluate(
            `(() => { const s = document.getElementById("f-target"); s.value = "gemini"; s.dispatchEvent(new Event("change")); })()`,
          );
          assert.deepEqual(
            await page.evaluate(texts("#matrix-head th[data-col]:not([hidden])")).then((h) =>
              (h as string[]).map((x) => x.replace(/\d+ exact.*$/, ""))
            ),
            ["gemini"],
          );
          await page.evaluate(`document.getElementById("f-lossy").click()`);
          await page.evaluate(
            `(() => { const s = document.getElementById("f-search"); s.value = "SLUG"; s.dispatchEvent(new Event("input")); })()`,
          );
          assert.deepEqual(await page.evaluate(texts("#matrix-body tr:not([hidden]) th")), [
            "text:slug",
          ]);
          assert.match(
            await page.evaluate<string>(`document.getElementById("shown").textContent`),
            /Showing 1 tool of 3/,
          );
        },
      );

      await t.step("a screenshot of the page is not blank", async () => {
        await page.open(
          `${url}#cell/openai-strict/text%3Aslug`,
          `!document.getElementById("detail").hidden`,
        );
        const stats = await pngStats(await page.screenshot());
        assert.equal(stats.width, 1280);
        assert.ok(stats.variance > 100, `grey-level variance ${stats.variance}: a blank page?`);
      });

      await t.step("axe-core finds no WCAG 2 A/AA violation, matrix and detail open", async () => {
        await page.open(url);
        await page.evaluate(axe.source);
        const run = `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } })
          .then((r) => r.violations.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`;
        assert.deepEqual(await page.evaluate(run), []);
        await page.evaluate(`location.hash = "#cell/openai/deep%3Anest"`);
        await page.waitFor(`!document.getElementById("detail").hidden`);
        assert.deepEqual(await page.evaluate(run), []);
        // The checker does run: a pale cell and a page without a language are violations.
        await page.evaluate(`document.querySelector("td.s-exact a").style.color = "#b8d8bf"`);
        await page.evaluate(`document.documentElement.removeAttribute("lang")`);
        const broken = await page.evaluate<string[]>(run);
        assert.ok(broken.some((v) => v.startsWith("color-contrast: ")), broken.join("\n"));
        assert.ok(broken.some((v) => v.startsWith("html-has-lang: ")), broken.join("\n"));
      });

      await t.step(
        "own checks: every control is labelled, status colours reach 4.5:1, Tab goes controls then cells",
        async () => {
          await page.open(url);
          assert.deepEqual(
            await page.evaluate(
              `[...document.querySelectorAll("input, select")].filter((e) => e.labels.length === 0).map((e) => e.id)`,
            ),
            [],
          );
          for (const status of ["exact", "lossy", "refused"]) {
            const [fg, bg] = await page.evaluate<string[]>(
              `(() => { const a = document.querySelector("td.s-${status} a");
            return [getComputedStyle(a).color, getComputedStyle(a.parentElement).backgroundColor]; })()`,
            );
            assert.ok(
              contrast(fg, bg) >= 4.5,
              `${status}: ${fg} on ${bg} is ${contrast(fg, bg).toFixed(2)}:1`,
            );
          }
          const order: string[] = [];
          for (let i = 0; i < 5; i++) {
            await page.press("Tab");
            order.push(
              await page.evaluate(
                `document.activeElement.id || document.activeElement.getAttribute("href")`,
              ),
            );
          }
          assert.deepEqual(order, [
            "f-target",
            "f-lossy",
            "f-search",
            "#cell/openai/math%3Aadd",
            "#cell/openai-strict/math%3Aadd",
          ]);
        },
      );
    } finally {
      await page.close();
    }
  },
});
