/**
 * Provenance records from a real sandbox run: the API client posts fixture images over HTTP, the
 * EXIF is read from the same bytes, and the records are built exactly as locate builds them.
 */
import { readFileSync } from 'node:fs';
import { ApiClient } from '../../src/api/client.js';
import type { GeolocateRequest, GeolocateResponse } from '../../src/api/schemas.js';
import { corroborate, estimateOf } from '../../src/evidence/corroborate.js';
import { readExif } from '../../src/image/exif.js';
import { type ProvenanceRecord, buildRecord } from '../../src/evidence/records.js';
import { sha256Hex } from './hash.js';
import { FIXTURES, KEYS } from '../helpers/sandbox.js';

export async function sandboxRecord(baseUrl: string, file: string, req: Omit<GeolocateRequest, 'image_b64'>, now = Date.now()): Promise<ProvenanceRecord> {
  const bytes = readFileSync(FIXTURES + file);
  const client = new ApiClient({ baseUrl, apiKey: KEYS.pro, timeoutMs: 20_000 });
  const request = { ...req, image_b64: bytes.toString('base64') };
  const res = await client.geolocate(request);
  const body = res.data as GeolocateResponse;
  const exif = corroborate(estimateOf(body), await readExif(bytes));
  return buildRecord({
    input: { path: FIXTURES + file, sha256: sha256Hex(bytes), size: bytes.length, mime: 'image/jpeg' },
    request,
    response: res,
    baseUrl,
    cliVersion: 'test',
    exif,
    now,
  });
}
