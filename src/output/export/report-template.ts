/** The report's own CSS, kept as a string so the report stays one file (its browser script: report-script.ts). */

export const REPORT_CSS = `
:root { color-scheme: light; --fg: #1d232a; --muted: #5c6670; --line: #d8dde3; --est: #d62424; --cand: #247ad6; --exif: #2fa82f; --scope: #888; --shadow: #6b4fa0; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #f6f7f9; }
header.page { padding: 16px 24px; background: #1d232a; color: #fff; }
header.page h1 { margin: 0; font-size: 20px; }
header.page p { margin: 4px 0 0; color: #c9d1d9; font-size: 12px; }
main { max-width: 1100px; margin: 0 auto; padding: 16px 24px 40px; }
section.result { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 20px; margin: 16px 0; }
section.result h2 { margin: 0 0 12px; font-size: 18px; }
h3 { font-size: 14px; margin: 18px 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.top { display: grid; grid-template-columns: 260px 1fr; gap: 16px; align-items: start; }
.top img { width: 100%; height: auto; border-radius: 4px; border: 1px solid var(--line); image-rendering: auto; }
.noimg { padding: 24px 8px; text-align: center; color: var(--muted); border: 1px dashed var(--line); border-radius: 4px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.conf { font-weight: 600; }
/* The map's own background is the sea offline: country outlines (land) are drawn on it. */
.map { height: 420px; margin-top: 14px; border: 1px solid var(--line); border-radius: 4px; background: #d7e3ee; }
.map.overview { height: 460px; margin-top: 0; }
.geo-country span { position: absolute; transform: translate(-50%, -50%); white-space: nowrap; color: #5c6670; font: 600 11px/1 system-ui, sans-serif; letter-spacing: .08em; text-transform: uppercase; }
.leaflet-tooltip.geo-num { padding: 0 5px; font-weight: 700; font-size: 12px; line-height: 18px; white-space: nowrap; }
.leaflet-control-layers label { font-size: 12px; }
section.summary { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 20px; margin: 16px 0; }
section.summary h2 { margin: 0 0 12px; font-size: 18px; }
table.summary { margin-top: 12px; }
table.summary td.input { overflow-wrap: anywhere; }
td.v-agrees { color: #1e7a1e; font-weight: 600; } td.v-contradicts { color: var(--est); font-weight: 700; }
h2 .no { display: inline-block; min-width: 24px; margin-right: 8px; padding: 0 6px; border-radius: 12px; background: var(--est); color: #fff; text-align: center; font-size: 14px; line-height: 24px; vertical-align: 2px; }
.links { margin: 10px 0 0; } .links a, table.summary a { color: #1b5fb4; }
.map-missing { padding: 12px; color: var(--muted); }
.legend { display: flex; gap: 16px; font-size: 12px; color: var(--muted); margin-top: 6px; }
.legend a { margin-left: auto; color: var(--muted); }
.legend span::before { content: ""; display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 5px; vertical-align: -1px; }
.legend .l-est::before { background: var(--est); } .legend .l-cand::before { background: var(--cand); }
.legend .l-exif::before { border: 2px solid var(--exif); width: 8px; height: 8px; } .legend .l-scope::before { border: 2px solid var(--scope); width: 8px; height: 8px; }
.legend .l-shadow::before { background: var(--shadow); border-radius: 0; height: 3px; width: 14px; vertical-align: 3px; }
.verdict.sun { margin-top: 6px; border-color: var(--shadow); }
.verdict { padding: 8px 12px; border-radius: 4px; border-left: 4px solid var(--scope); background: #f1f3f5; margin: 0; }
.verdict-agrees { border-color: var(--exif); } .verdict-contradicts { border-color: var(--est); background: #fdf0f0; }
.note { color: var(--muted); font-size: 12px; margin: 4px 0 0; }
.reasoning, pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
pre { font-size: 12px; background: #f1f3f5; padding: 8px; border-radius: 4px; }
.evidence { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.evidence ul { margin: 0; padding-left: 18px; }
.supports h4 { color: var(--exif); margin: 0 0 4px; } .contradictions h4 { color: var(--est); margin: 0 0 4px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.empty { color: var(--muted); font-style: italic; }
.leaflet-tooltip { max-width: 320px; white-space: normal; }
/* A video's or photo set's report (scene-report.ts): the frame strip under the consensus. */
.strip { display: flex; gap: 10px; overflow-x: auto; padding: 4px 0 8px; }
.strip figure { flex: 0 0 auto; width: 176px; margin: 0; border: 1px solid var(--line); border-radius: 4px; background: #fff; }
.strip figure.c1 { border-color: var(--est); border-width: 2px; }
.strip figure.dropped { width: 120px; opacity: .7; }
.strip img { display: block; width: 100%; height: auto; border-radius: 3px 3px 0 0; }
.strip figcaption { padding: 4px 6px; font-size: 12px; }
.strip .noimg { padding: 28px 4px; }
.legend .l-clu::before { background: #d6a024; } .legend .l-frame::before { background: var(--cand); }
@media print { .map { break-inside: avoid; } body { background: #fff; } }
@media (max-width: 700px) { .top, .evidence { grid-template-columns: 1fr; } }
.calibration { margin: 0 0 14px; padding: 10px 14px; border-radius: 4px; border-left: 6px solid var(--scope); background: #f1f3f5; }
.calibration-head { margin: 0 0 6px; font-size: 16px; }
.calibration-abstain { border-color: var(--est); background: #fdecec; } .calibration-abstain .calibration-head { color: #a31212; }
.calibration-publish { border-color: var(--exif); background: #eef8ee; }
td.advice-abstain { color: var(--est); font-weight: 700; } td.advice-publish { color: #1e7a1e; }
/* A sandbox's answers (report-simulated.ts): amber, used for nothing else, above every map. */
.simulated-banner { margin: 16px 0; padding: 12px 16px; border: 2px solid #b26a00; border-left-width: 8px; border-radius: 6px; background: #fff3cd; color: #5c3700; }
.simulated-banner strong { font-size: 18px; } .simulated-banner p { margin: 4px 0 0; }
p.simulated { margin: 0 0 10px; padding: 6px 12px; border-left: 6px solid #b26a00; background: #fff3cd; color: #5c3700; }
.simulated-tag { display: inline-block; margin-left: 6px; padding: 0 6px; border-radius: 4px; background: #fff3cd; color: #5c3700; font-size: 11px; font-weight: 600; }
/* A narrow screen (a phone, 420 px): each summary row is a block of labelled lines, every column kept. */
@media (max-width: 560px) {
  main { padding: 8px; } section.summary, section.result { padding: 12px; }
  table.summary thead { display: none; }
  table.summary tr { display: block; border-bottom: 2px solid var(--line); padding: 4px 0; }
  table.summary td { display: flex; gap: 8px; border: 0; padding: 2px 4px; text-align: left; white-space: normal; }
  table.summary td::before { content: attr(data-label); flex: 0 0 110px; color: var(--muted); }
  table.summary td.num:first-child::before { content: "#"; }
}
`;
