/**
 * The case report's CSS (case-report-html.ts), one string so the page stays one file and its
 * Content-Security-Policy pins it by hash. For paper: the links bar goes, every section starts a
 * page, and wide values (hashes, paths, commands) wrap instead of being cut at the margin.
 */
export const CASE_REPORT_CSS = `
:root { color-scheme: light; --fg: #1d232a; --muted: #5c6670; --line: #d8dde3; --red: #d62424; --blue: #247ad6; --amber: #b26a00; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #f6f7f9; }
header.page { padding: 16px 24px; background: #1d232a; color: #fff; }
header.page h1 { margin: 0; font-size: 22px; }
header.page p { margin: 4px 0 0; color: #c9d1d9; font-size: 12px; }
nav.controls { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; gap: 4px 14px; padding: 8px 24px; background: #fff; border-bottom: 1px solid var(--line); font-size: 13px; }
nav.controls a, a { color: #1b5fb4; }
main { max-width: 1100px; margin: 0 auto; padding: 8px 24px 40px; }
section.part { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 20px; margin: 16px 0; }
section.part > h2 { margin: 0 0 12px; font-size: 19px; }
section.part > h2 .no { color: var(--muted); margin-right: 6px; }
h3 { font-size: 14px; margin: 18px 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 12px; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.hash, code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; overflow-wrap: anywhere; word-break: break-all; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
.empty { color: var(--muted); font-style: italic; }
.meta { color: var(--muted); font-size: 12px; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; font-size: 13px; margin: 4px 0 8px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: anywhere; }
th { color: var(--muted); font-weight: 600; }
.source { display: grid; grid-template-columns: 240px minmax(0, 1fr); gap: 16px; align-items: start; padding: 10px 0; border-top: 1px solid var(--line); }
.source:first-of-type { border-top: 0; }
figure { margin: 0; }
figure img { display: block; width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
figcaption { font-size: 12px; color: var(--muted); margin-top: 4px; overflow-wrap: anywhere; }
figcaption strong { color: var(--fg); }
.noimg { padding: 24px 8px; text-align: center; color: var(--muted); border: 1px dashed var(--line); border-radius: 4px; font-size: 12px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; margin: 8px 0 4px; }
.exhibits { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 12px; margin: 6px 0; }
article.note { border-left: 4px solid var(--blue); padding: 4px 12px; margin: 10px 0; }
article.note.hypothesis { border-color: #8a4fd6; }
.kind { display: inline-block; padding: 0 6px; border-radius: 4px; background: #e8f0fb; font-size: 12px; font-weight: 600; }
.hypothesis .kind { background: #f1eafb; }
.conclusion-box { padding: 12px 16px; border-left: 8px solid var(--red); background: #fdf0f0; border-radius: 4px; margin: 0 0 12px; }
.conclusion-box .where { font-size: 18px; font-weight: 600; margin: 0; }
.verdict-accepted { color: #1e7a1e; font-weight: 600; } .verdict-rejected { color: var(--red); font-weight: 600; }
.current { color: #1e7a1e; font-weight: 600; } .stale { color: var(--amber); font-weight: 600; }
svg.case-map { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; margin-top: 8px; }
svg .map-label { font: 600 12px system-ui, sans-serif; fill: #1d232a; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 12px; color: var(--muted); margin: 6px 0; }
.legend span::before { content: ""; display: inline-block; width: 12px; height: 12px; margin-right: 5px; vertical-align: -2px; border-radius: 50%; }
.legend .l-conclusion::before { border: 2px solid var(--red); background: #fbe3e3; }
.legend .l-ruled::before { border-radius: 0; border: 1px solid #444; background: repeating-linear-gradient(45deg, #444 0 2px, #fff 2px 5px); }
.legend .l-result::before { background: var(--blue); } .legend .l-note::before { background: #8a4fd6; border-radius: 0; transform: rotate(45deg) scale(.8); }
pre.commands { white-space: pre-wrap; overflow-wrap: anywhere; background: #f1f3f5; padding: 10px; border-radius: 4px; font-size: 12px; }
.simulated-banner { margin: 16px 0; padding: 12px 16px; border: 2px solid var(--amber); border-left-width: 8px; border-radius: 6px; background: #fff3cd; color: #5c3700; }
.simulated-banner strong { font-size: 18px; }
p.simulated { margin: 0 0 10px; padding: 6px 12px; border-left: 6px solid var(--amber); background: #fff3cd; color: #5c3700; }
@media (max-width: 700px) { .source, .pair { grid-template-columns: 1fr; } }
@media print {
  nav.controls, .controls { display: none !important; }
  body { background: #fff; font-size: 12px; }
  header.page { background: #fff; color: #000; border-bottom: 2px solid #000; padding: 0 0 8px; }
  header.page p { color: #333; }
  main { max-width: none; padding: 0; }
  section.part { break-before: page; page-break-before: always; border: 0; border-radius: 0; padding: 0; margin: 0; }
  section.part:first-of-type { break-before: auto; page-break-before: auto; }
  table { page-break-inside: auto; } tr, figure, article.note, .conclusion-box { break-inside: avoid; page-break-inside: avoid; }
  svg.case-map { break-inside: avoid; width: 100%; }
  a { color: inherit; text-decoration: none; }
}
`;
