// The report page's style sheet, inlined into the page (no network). Status
// colours are dark text on light backgrounds, each pair above the WCAG AA
// contrast ratio of 4.5:1 (the browser tests compute them); every status also
// carries a word and a sign, so that the page reads the same without colour.

/** The colours of the three statuses: text and background. */
export const STATUS_COLOURS: Readonly<Record<string, { fg: string; bg: string }>> = {
  exact: { fg: "#14532d", bg: "#e3f1e6" },
  lossy: { fg: "#6a3f00", bg: "#fdf0c8" },
  refused: { fg: "#8b0f1c", bg: "#fbe2e4" },
};

const cells = Object.entries(STATUS_COLOURS).map(([status, { fg, bg }]) =>
  `td.s-${status}, .badge.s-${status} { background: ${bg}; }
td.s-${status} a, .badge.s-${status} { color: ${fg}; }`
).join("\n");

/** The CSS of the page. */
export const PAGE_STYLE: string = `
:root { color-scheme: light; --fg: #1b1b1b; --muted: #4a4a4a; --line: #c9c9c9; --focus: #1a4fd6; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--fg); background: #fff; }
header, #controls, #legend, main > p { padding: 0 1.25rem; }
h1 { font-size: 1.4rem; margin: 1rem 0 .25rem; }
.meta { color: var(--muted); margin: 0 0 .75rem; }
.meta span + span::before { content: " · "; }
#controls { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center;
  padding-top: .5rem; padding-bottom: .5rem; border-top: 1px solid var(--line);
  border-bottom: 1px solid var(--line); background: #f6f6f6; position: sticky; top: 0; z-index: 2; }
#controls label { font-weight: 600; }
#controls select, #controls input[type=search] { font: inherit; padding: .2rem .4rem;
  border: 1px solid #767676; border-radius: 4px; background: #fff; color: var(--fg); }
#shown { color: var(--muted); }
#legend { color: var(--muted); margin: .5rem 0; }
.table-wrap { overflow-x: auto; padding: 0 1.25rem 2rem; }
table { border-collapse: collapse; min-width: 100%; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { border: 1px solid var(--line); padding: 0; text-align: left; vertical-align: top; }
thead th { padding: .35rem .5rem; background: #f0f0f0; }
thead th .counts { display: block; font-weight: 400; font-size: .8rem; color: var(--muted); }
tbody th { padding: .3rem .5rem; font-weight: 600; font-family: ui-monospace, Menlo, Consolas, monospace;
  font-size: .85rem; max-width: 24rem; overflow-wrap: anywhere; }
tbody th small { display: block; font-weight: 400; color: var(--muted); font-family: system-ui, sans-serif; }
td a { display: block; padding: .3rem .5rem; text-decoration: none; font-weight: 600; white-space: nowrap; }
td a .n { font-weight: 400; }
td a:hover { text-decoration: underline; }
a:focus-visible, button:focus-visible, select:focus-visible, input:focus-visible, #detail h2:focus-visible {
  outline: 3px solid var(--focus); outline-offset: -3px; }
td a[aria-current=true] { outline: 3px solid var(--fg); outline-offset: -3px; }
table.only-lossy td.s-exact a { visibility: hidden; }
${cells}
.badge { display: inline-block; padding: .05rem .45rem; border-radius: 4px; font-weight: 700; }
#detail { position: fixed; top: 0; right: 0; bottom: 0; width: min(60rem, 58vw); overflow: auto;
  background: #fff; border-left: 2px solid var(--fg); box-shadow: -6px 0 18px rgba(0,0,0,.18);
  padding: 0 1.25rem 2rem; z-index: 3; }
#detail h2 { font-size: 1.15rem; margin: 1rem 5.5rem .5rem 0; overflow-wrap: anywhere; }
#detail h3 { font-size: 1rem; margin: 1rem 0 .35rem; }
#detail .close { float: right; margin-top: 1rem; font: inherit; padding: .2rem .7rem;
  border: 1px solid #767676; border-radius: 4px; background: #f6f6f6; color: var(--fg); cursor: pointer; }
#detail dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .75rem; margin: .5rem 0; }
#detail dt { font-weight: 600; }
#detail dd { margin: 0; overflow-wrap: anywhere; }
#detail ol, #detail ul { padding-left: 1.5rem; margin: .25rem 0; }
#detail li { margin: .2rem 0; }
code, pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .82rem; }
.refusal { border: 2px solid ${STATUS_COLOURS.refused.fg}; background: ${STATUS_COLOURS.refused.bg};
  padding: .25rem .75rem; border-radius: 4px; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; }
figure { margin: 0; min-width: 0; }
figcaption { font-weight: 600; margin-bottom: .25rem; }
pre { margin: 0; padding: .5rem; background: #f7f7f7; border: 1px solid var(--line); overflow: auto;
  max-height: 70vh; white-space: pre; }
mark { color: inherit; border-radius: 2px; }
mark.m-dropped { background: ${STATUS_COLOURS.refused.bg}; outline: 1px dashed ${STATUS_COLOURS.refused.fg}; }
mark.m-rewritten, mark.m-moved-to-description { background: ${STATUS_COLOURS.lossy.bg};
  outline: 1px dashed ${STATUS_COLOURS.lossy.fg}; }
mark.m-refused { background: ${STATUS_COLOURS.refused.bg}; outline: 2px solid ${STATUS_COLOURS.refused.fg}; }
mark[data-label]::before { content: "[" attr(data-label) "] "; font-weight: 700; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 60rem) { #detail { width: 100vw; } .sides { grid-template-columns: 1fr; } }
`;
