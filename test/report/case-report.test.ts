/**
 * geo cases report: a worked case on the sandbox (case-fixture.ts) written as HTML, Markdown and
 * JSON. Each section is there with its id and heading and says the case rests on simulated
 * answers; the sources carry their hashes, the observations their exhibits and the working copy
 * beside its original (each labelled, embedded as data: URLs), the clues their verdicts, the
 * conclusion its map (inline SVG: its circle, the areas ruled out hatched); the report file is
 * logged in custody. A real service's case says nothing of a sandbox. Headless Chromium
 * screenshots the page at 1280 px and prints it to PDF, where each heading is found again.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/evidence/custody.js';
import { SIMULATED_CASE } from '../../src/evidence/simulated.js';
import { REPORT_SECTIONS } from '../../src/output/export/case-report-data.js';
import { caseId, caseRunner, custodyOf, tmp } from '../cases/helpers.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { type FakeApi, ok, startFakeApi } from '../tolerant/fake-server.js';
import { type WorkedCase, workedCase } from './case-fixture.js';
import { CHROMIUM, CHROMIUM_SKIP, printToPdfAtLoad, screenshotAtLoad } from './chromium.js';

const sb = withSandbox();
let w: WorkedCase;
let dir: string;
let html: string;
let md: string;

beforeAll(async () => {
  w = await workedCase(sb);
  dir = tmp('geo-case-report-');
  const h = await w.run(['cases', 'report', w.id, '--out', join(dir, 'report.html')]);
  expect(h.code, h.stderr).toBe(0);
  html = readFileSync(join(dir, 'report.html'), 'utf8');
  const m = await w.run(['cases', 'report', w.id, '--format', 'md']);
  expect(m.code, m.stderr).toBe(0);
  md = m.stdout;
}, 90_000);

const count = (text: string, s: string) => text.split(s).length - 1;

describe('geo cases report: the sections', () => {
  it('HTML: every section with its id and numbered heading, each saying the answers are simulated', () => {
    for (const [i, [id, heading]] of REPORT_SECTIONS.entries()) expect(html).toContain(`<section class="part" id="${id}">\n<h2><span class="no">${i + 1}.</span>${heading}</h2>`);
    expect(count(html, `<strong>${SIMULATED_CASE}</strong>`)).toBe(REPORT_SECTIONS.length);
    expect(html).toMatch(/<div class="simulated-banner" role="alert"><strong>3 simulated answers \(sandbox\): not evidence<\/strong>/);
  });

  it('Markdown: every section with its anchor and heading, each saying the answers are simulated', () => {
    for (const [i, [id, heading]] of REPORT_SECTIONS.entries()) expect(md).toContain(`<a id="${id}"></a>\n\n## ${i + 1}. ${heading}\n\n> **${SIMULATED_CASE}**`);
    expect(count(md, `**${SIMULATED_CASE}**`)).toBe(REPORT_SECTIONS.length);
  });

  it('the sources: each input and answer with its sha256, size, service and what its metadata said', () => {
    const entries = custodyOf(w.data, w.id);
    const inputs = entries.filter((e) => e.event === 'input_hashed').map((e) => (e.data.input as { sha256: string; size: number }));
    const answers = entries.filter((e) => e.event === 'answer_received').map((e) => (e.data.answer as { sha256: string; service: string }));
    expect(inputs).toHaveLength(3);
    for (const i of inputs) {
      expect(html).toContain(i.sha256);
      expect(md).toContain(`\`${i.sha256}\`, ${i.size} bytes`);
    }
    for (const a of answers) expect(md).toContain(`sha256 \`${a.sha256}\` from ${a.service}`);
    expect(html).toContain('camera make SONY');
    expect(html).toContain('no C2PA content credentials in the file');
    expect(count(html, '<strong>original (evidence)</strong>')).toBe(4); // three sources, and the working copy's original
  });

  it('the method: depth, service and each local check (EXIF, sun, C2PA)', () => {
    expect(md).toMatch(new RegExp(`geo asked ${sb.url.replace(/[.:/]/g, '\\$&')} at depth 3\\.`));
    expect(count(md, '| EXIF GPS ')).toBe(3);
    expect(html).toContain('<th>EXIF</th><th>sun</th><th>C2PA</th>');
  });

  it('observations and hypotheses: text, what they point at, the exhibit and the working copy beside its original, embedded', () => {
    expect(html).toContain('Cranes on the left quay, painted red.');
    expect(html).toContain('<span class="kind">hypothesis</span>');
    expect(html).toMatch(/<figure><img src="data:image\/jpeg;base64,[A-Za-z0-9+/=]+" alt="exhibit: reference.jpg">/);
    expect(html).toContain(`from https://example.org/harbour · sha256 <span class="hash">${w.exhibit}</span>`);
    const pair = /<div class="pair">(.*?)<\/div>\n/s.exec(html)![1]!;
    expect(pair).toMatch(/<img src="data:image\/[a-z]+;base64,[^"]+" alt="original \(evidence\)">.*<strong>original \(evidence\)<\/strong>/s);
    expect(pair).toMatch(/<img src="data:image\/[a-z]+;base64,[^"]+" alt="working copy \(annotated\)">.*<strong>working copy \(annotated\)<\/strong>.*sha256 <span class="hash">/s);
    expect(pair).toContain(w.copy);
    expect(md).toContain(`→ working copy (annotated) \`${w.copy}\``);
  });

  it('clues accepted and rejected, places ruled out, the conclusion and what it superseded', () => {
    // What a clue says is the answer's own text (clue-ids.ts), the one the notes show too.
    const said = /points at r1, r1\.clue1 \(&quot;([^&]+)&quot;\)/.exec(html)![1]!;
    expect(said).not.toBe('first clue');
    expect(md).toMatch(new RegExp(`\\| \`r1\\.clue1\` \\| ${said.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\| matches the reference photo \\| entry \\d+`));
    expect(md).toMatch(/### rejected\n\n.*\n.*\n\| `r2\.support1` \| [^|]+ \| the signage is not legible/);
    expect(md).toContain('| Saint-Denis (48.936, 2.357) and 3 km around | no harbour there |');
    expect(md).toContain('| the area in south.geojson | the quay is further west |');
    expect(md).toContain('At Champ de Mars: 48.8584, 2.2945, within 500 m: **probable**');
    expect(md).toMatch(/Superseded: At 48\.85, 2\.29, within 2 km: \*\*possible\*\*, because first look/);
    expect(html).toMatch(/<p class="where">Champ de Mars: 48\.8584, 2\.2945, within 500 m: probable<\/p>/);
    expect(html).toMatch(/supersedes<\/dt><dd>the conclusion of entry \d+<\/dd>/);
  });

  it('the map: inline SVG with the conclusion circle, the ruled-out areas hatched, a scale, and an OpenStreetMap link hidden in print', () => {
    const svg = /<svg class="case-map"[\s\S]*?<\/svg>/.exec(html)![0];
    expect(svg).toContain('<pattern id="ruled-out-hatch"');
    expect(count(svg, 'fill="url(#ruled-out-hatch)"')).toBe(2);
    expect(svg).toMatch(/<path d="M[\d.,L]+Z" fill="#d62424" fill-opacity="0.15"/);
    expect(svg).toMatch(/class="map-label">\d+ (m|km)<\/text><\/g>/);
    expect(html).toMatch(/<div class="controls"><p class="links">Open in .*href="https:\/\/www\.openstreetmap\.org\//);
    expect(html).toContain('nav.controls, .controls { display: none !important; }');
    expect(html).not.toMatch(/<script|https?:\/\/[^"]*\.(js|css|png)"/);
  });

  it('reviews, current and stale; the custody summary with the commands that verify it', () => {
    expect(md).toMatch(/\| request changes \| reviewed at 10 \| rev@example\.org \(SHA256:reviewer\), entry \d+ \| stale \(entry \d+ came after\) \|/);
    expect(md).toMatch(/\| approve \| reviewed at \d+ \| .* \| current \|/);
    expect(md).toContain(`geo cases verify ${w.id} --allow-sandbox\n`);
    expect(md).toContain('geo cases verify case.zip --allow-sandbox');
    expect(html).toContain(`$ geo cases bundle ${w.id} case.zip`);
  });

  it('the HTML report is logged as file_written (kind report) with its sha256; Markdown on stdout as path -', () => {
    const written = custodyOf(w.data, w.id).filter((e) => e.event === 'file_written').map((e) => e.data.file);
    const file = join(dir, 'report.html');
    expect(written).toEqual([
      { kind: 'report', format: 'html', path: file, sha256: sha256Hex(readFileSync(file)), size: statSync(file).size },
      { kind: 'report', format: 'md', path: '-', sha256: sha256Hex(md), size: Buffer.byteLength(md) },
    ]);
  });
});

describe('geo cases report: strings are escaped', () => {
  it('a hostile note is text in HTML and inert in Markdown', () => {
    expect(html).toContain('&lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(html).not.toMatch(/<script|<img src=x/);
    expect(html).toContain('Where was the harbour photo taken? &lt;b&gt;not bold&lt;/b&gt;');
    expect(md).not.toMatch(/<script|<img|(?<!\\)\]\(javascript|\u001b/);
    expect(md).toContain('&lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(md).toContain('\\# \\[click\\](javascript:alert(3)) !\\[x\\](http://evil/x.png) \\| cell \\| \\`code\\` \\*\\*bold\\*\\* \\\\x1b');
  });
});

describe('geo cases report: formats and bad input', () => {
  it('--out report.md writes Markdown; --json prints the data, its fields selectable', async () => {
    const out = join(dir, 'report.md');
    expect((await w.run(['cases', 'report', w.id, '--out', out])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^# Case report: Harbour fire\n/);
    const j = await w.run(['cases', 'report', w.id, '--json', 'conclusion,clues']);
    expect(j.code).toBe(0);
    const d = JSON.parse(j.stdout) as { conclusion: { confidence: string; within_m: number }; clues: { accepted: unknown[]; rejected: unknown[] } };
    expect(Object.keys(d)).toEqual(['conclusion', 'clues']);
    expect(d.conclusion).toMatchObject({ confidence: 'probable', within_m: 500 });
    expect([d.clues.accepted.length, d.clues.rejected.length]).toEqual([1, 1]);
  });

  it('exit 2, one line and nothing written: no such case, an unknown format, HTML to a terminal', async () => {
    const before = custodyOf(w.data, w.id).length;
    const none = await w.run(['cases', 'report', 'Nobody', '--out', join(dir, 'none.html')]);
    expect([none.code, none.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(none.stderr).toMatch(/^error: .*Nobody/);
    const pdf = await w.run(['cases', 'report', w.id, '--out', join(dir, 'r.pdf')]);
    expect(pdf.code).toBe(2);
    expect(pdf.stderr).toMatch(/no report format for .*r\.pdf/);
    const tty = await w.run(['cases', 'report', w.id, '--format', 'html'], { tty: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toContain('html is a report for a browser: not written to a terminal');
    expect(custodyOf(w.data, w.id)).toHaveLength(before);
    expect(spawnSync('ls', [dir], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort()).toEqual(['report.html', 'report.md']);
  });
});

describe('geo cases report: a case with nothing in it yet', () => {
  it('still has every section, says what is missing, and draws no map', async () => {
    const c = caseRunner(sb);
    expect((await c.run(['cases', 'create', '--name', 'Empty', '--local'])).code).toBe(0);
    const m = await c.run(['cases', 'report', 'Empty']);
    expect(m.code, m.stderr).toBe(0);
    for (const [i, [, heading]] of REPORT_SECTIONS.entries()) expect(m.stdout).toContain(`## ${i + 1}. ${heading}\n`);
    for (const s of ['_No result is linked to this case._', '_No answer is linked to this case yet._', '_No observation or hypothesis has been recorded._', '_No place has been ruled out._', '_No conclusion has been recorded._', '_No review has been recorded._']) expect(m.stdout).toContain(s);
    const out = join(tmp('geo-empty-report-'), 'empty.html');
    expect((await c.run(['cases', 'report', 'Empty', '--out', out])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toContain('<svg');
  });
});

describe('geo cases report: a real service\'s case', () => {
  let real: FakeApi;
  afterAll(() => real?.close());
  it('says nothing of a sandbox', async () => {
    real = await startFakeApi();
    real.answers.geolocate = ok({ success: true, analysis_id: 'an_real', confidence: 0.7, reasoning: 'Signage.', model: 'orca-1.5', depth: 1, timing_ms: 5, location: { latitude: 35.66, longitude: 139.7, country: 'Japan', city: 'Tokyo', neighborhood: 'Shibuya', address: 'x' } });
    const c = caseRunner(sb);
    expect((await c.run(['cases', 'create', '--name', 'Real', '--local'])).code).toBe(0);
    expect((await c.run(['locate', FIXTURES + 'tokyo.jpg', '--case', 'Real'], { env: { GEO_BASE_URL: real.url, GEO_API_KEY: 'orca_live_test_0123456789abcdef' } })).code).toBe(0);
    const r = await c.run(['cases', 'report', caseId(c.data, 'Real'), '--format', 'md']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('## 9. Custody, and how to verify it');
    expect(r.stdout).not.toMatch(/sandbox|simulated/i);
  }, 60_000);
});

describe.skipIf(!CHROMIUM)(`the HTML report in headless Chromium${CHROMIUM ? '' : ` (skipped: ${CHROMIUM_SKIP})`}`, () => {
  it('screenshots at 1280 px, and prints to PDF with every section heading in it', () => {
    const file = join(dir, 'report.html');
    const png = join(dir, 'report.png');
    screenshotAtLoad(file, png, '1280,2000');
    const shot = readFileSync(png);
    expect(shot.subarray(1, 4).toString()).toBe('PNG');
    expect(shot.readUInt32BE(16)).toBe(1280);
    const pdf = join(dir, 'report.pdf');
    printToPdfAtLoad(file, pdf);
    const text = spawnSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text.status).toBe(0);
    const flat = text.stdout.replace(/\s+/g, ' ');
    for (const [, heading] of REPORT_SECTIONS) expect(flat).toContain(heading);
    // A page per section: the sections start on pages of their own (at least as many pages as sections).
    const pages = spawnSync('pdfinfo', [pdf], { encoding: 'utf8' }).stdout;
    expect(Number(/Pages:\s+(\d+)/.exec(pages)![1])).toBeGreaterThanOrEqual(REPORT_SECTIONS.length);
  }, 120_000);
});
