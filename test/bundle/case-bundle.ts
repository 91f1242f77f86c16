/**
 * A real case bundle for the verify tests: results from the sandbox over HTTP, a custody log made
 * through CustodyLog as the commands append it (case created, input hashed, request sent, answer
 * received, result linked, report and exports written, the bundle sealed), the report, GeoJSON
 * and KMZ from geo's own exporters, and optionally the originals; written with writeBundle. Its
 * answers are the sandbox's: simulated, so `cases verify` needs --allow-sandbox for it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '../../src/evidence/custody.js';
import { CustodyLog, MemoryCustodyStorage } from '../../src/evidence/custody-log.js';
import type { ProvenanceRecord } from '../../src/evidence/record-types.js';
import { type Bundle, writeBundle } from '../../src/output/export/bundle.js';
import { buildHtmlReport, renderGeoJSON, renderKMZ } from '../../src/output/export/index.js';
import { sandboxRecord } from '../export/sandbox-run.js';
import { FIXTURES } from '../helpers/sandbox.js';

export const CASE = { id: 'case_harbour', name: 'Harbour fire' };
const ACTOR = { user: 'analyst', host: 'desk-1', geo: 'test' };

export interface CaseFixture {
  records: ProvenanceRecord[];
  custody: string[];
  storage: MemoryCustodyStorage;
  bundle: Bundle;
  /** case.zip in a folder of its own. */
  zipPath: string;
}

export async function makeCaseBundle(sandboxUrl: string, opts: { originals?: boolean } = {}): Promise<CaseFixture> {
  const files = ['paris.jpg', 'tokyo.jpg'];
  const records = [];
  for (const f of files) records.push(await sandboxRecord(sandboxUrl, f, { depth: 1 }, Date.parse('2025-05-14T10:00:00Z')));
  const storage = new MemoryCustodyStorage();
  let t = Date.parse('2025-05-14T10:00:00Z');
  const log = new CustodyLog(storage, ACTOR, () => (t += 1000));
  await log.append(CASE.id, { event: 'case_created', data: { case: { ...CASE } } });
  for (const rec of records) {
    const bytes = readFileSync(rec.input.path);
    const answer = { sha256: sha256Hex(rec.response.raw!), size: Buffer.byteLength(rec.response.raw!), status: 200, service: sandboxUrl, analysis_id: rec.response.body.analysis_id, sandbox: true };
    await log.append(CASE.id, { event: 'input_hashed', data: { input: { path: rec.input.path, sha256: sha256Hex(bytes), size: bytes.length } } });
    await log.append(CASE.id, { event: 'request_sent', data: { request: { input_sha256: rec.input.sha256, sha256: sha256Hex(bytes), size: bytes.length, fields: { depth: 1 }, service: sandboxUrl, idempotency_key: `k-${rec.input.sha256.slice(0, 8)}` } } });
    await log.append(CASE.id, { event: 'answer_received', data: { answer } });
    await log.append(CASE.id, { event: 'result_linked', data: { result: { input_sha256: rec.input.sha256, answer_sha256: answer.sha256, analysis_id: answer.analysis_id, input_path: rec.input.path, service: sandboxUrl, sandbox: true } } });
  }
  const sources = records.map((r) => ({ record: r, imageBytes: readFileSync(r.input.path) }));
  const { html } = await buildHtmlReport(sources, { generatedAt: '2025-05-14T10:05:00.000Z', cliVersion: 'test' });
  const geojson = renderGeoJSON(records);
  const kmz = await renderKMZ(sources, { now: Date.parse('2025-05-14T10:05:00Z'), useSharp: false });
  for (const [format, data] of [['html', html], ['geojson', geojson], ['kmz', kmz]] as const) {
    await log.append(CASE.id, { event: 'file_written', data: { file: { kind: format === 'html' ? 'report' : 'export', format, path: `out.${format}`, sha256: sha256Hex(data), size: Buffer.byteLength(data) } } });
  }
  const bundle = await writeBundle({
    case: CASE, records: records.map((r) => ({ ...r, sandbox: true })), reportHtml: html, geojson, kmz,
    ...(opts.originals ? { originals: files.map((f) => ({ sha256: sha256Hex(readFileSync(FIXTURES + f)), bytes: readFileSync(FIXTURES + f), extension: 'jpg' })) } : {}),
    seal: async (contents) => ({ entry: await log.append(CASE.id, { event: 'bundle_sealed', data: { bundle: contents } }), lines: await storage.lines(CASE.id) }),
  });
  const custody = await storage.lines(CASE.id);
  const zipPath = join(mkdtempSync(join(tmpdir(), 'geo-bundle-')), 'case.zip');
  writeFileSync(zipPath, bundle.zip);
  return { records, custody, storage, bundle, zipPath };
}
