/**
 * C2PA content credentials of an original (issue 31, item 4), read from bytes by image/c2pa.ts:
 * photos signed in the test (test/helpers/c2pa-sign.ts: a throwaway CA, signer and time-stamp
 * authority made with openssl) give their claim generator, signer, signing time, title and
 * assertions; one changed byte after signing makes them invalid with the C2PA status code that
 * says so; the signer is trusted only when its CA is given; a file without a manifest says none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { findC2pa } from '../../src/image/c2pa-find.js';
import { type C2paManifest, readC2pa } from '../../src/image/c2pa.js';
import { type TestPki, makePki, signImage } from '../helpers/c2pa-sign.js';

const IMAGES = join(import.meta.dirname, '../../fixtures/images');
const GENERATOR = { name: 'geo-test-camera', version: '1.0' };

let pki: TestPki;
let jpeg: Buffer;
let png: Buffer;

beforeAll(async () => {
  pki = makePki();
  jpeg = await signImage(readFileSync(join(IMAGES, 'paris.jpg')), pki, { title: 'paris.jpg', generator: GENERATOR, format: 'image/jpeg' });
  png = await signImage(readFileSync(join(IMAGES, 'plain.png')), pki, { title: 'plain.png', generator: GENERATOR, format: 'image/png' });
}, 60_000);

/** The byte in the middle of the entropy-coded scan (after SOS), flipped: the pixels change, the manifest does not. */
function flipScanByte(b: Buffer): Buffer {
  const out = Buffer.from(b);
  let pos = 2;
  while (out[pos] === 0xff && out[pos + 1] !== 0xda) pos += 2 + out.readUInt16BE(pos + 2);
  const at = pos + Math.floor((out.length - pos) / 2);
  out[at] = out[at]! ^ 0x01;
  return out;
}

describe('C2PA content credentials', () => {
  it('a signed JPEG: claim generator, signer, signing time, title and assertions; valid, its signer on no trust list', async () => {
    expect(findC2pa(jpeg, 'jpeg')).toMatchObject({ container: 'JPEG APP11 (JUMBF)' });
    const c = (await readC2pa(jpeg, 'jpeg')) as C2paManifest;
    expect(c).toMatchObject({ present: true, container: 'JPEG APP11 (JUMBF)', title: 'paris.jpg', claim_generator: 'geo-test-camera 1.0', timestamp_authority: 'Geo Test TSA' });
    expect(c.signer).toMatchObject({ name: 'Geo Test Signer (geo tests)', subject: 'CN=Geo Test Signer, O=geo tests', issuer: 'CN=Geo Test Root CA, O=geo tests', alg: 'es256' });
    // The time-stamp authority's time: made seconds ago.
    expect(Math.abs(Date.parse(c.signed_at!) - Date.now())).toBeLessThan(10 * 60_000);
    expect(c.assertions).toEqual(expect.arrayContaining(['c2pa.actions.v2', 'c2pa.hash.data']));
    expect(c.validation).toEqual({ state: 'valid', signer_trusted: false, failures: [{ code: 'signingCredential.untrusted', explanation: expect.any(String) }] });
    expect(c.reader).toMatch(/^@contentauth\/c2pa-wasm \d+\.\d+\.\d+$/);
  });

  it('with the CA given as a trust anchor the same signer is trusted', async () => {
    const c = (await readC2pa(jpeg, 'jpeg', { trustAnchors: readFileSync(pki.caFile, 'utf8') })) as C2paManifest;
    expect(c.validation).toEqual({ state: 'trusted', signer_trusted: true, failures: [] });
  });

  it('one pixel byte changed after signing: invalid, assertion.dataHash.mismatch named', async () => {
    const c = (await readC2pa(flipScanByte(jpeg), 'jpeg')) as C2paManifest;
    expect(c.validation.state).toBe('invalid');
    expect(c.validation.failures.map((f) => f.code)).toContain('assertion.dataHash.mismatch');
    // Who signed it is still said: the signature itself holds, the picture does not.
    expect(c.signer?.name).toBe('Geo Test Signer (geo tests)');
  });

  it('a signed PNG: its caBX chunk is found and read the same way', async () => {
    expect(findC2pa(png, 'png')).toMatchObject({ container: 'PNG caBX chunk' });
    const c = (await readC2pa(png, 'png')) as C2paManifest;
    expect(c).toMatchObject({ present: true, title: 'plain.png', claim_generator: 'geo-test-camera 1.0', validation: { state: 'valid' } });
  });

  it('a manifest whose JUMBF is garbage: invalid with the reader\'s reason, never a crash', async () => {
    const broken = Buffer.from(jpeg);
    const at = broken.indexOf('c2pa.signature');
    broken.fill(0x41, at, at + 200);
    const c = (await readC2pa(broken, 'jpeg')) as C2paManifest;
    expect(c.present).toBe(true);
    expect(c.validation.state).toBe('invalid');
    expect(c.validation.failures.length).toBeGreaterThan(0);
  });

  it('bytes changed anywhere in the manifest (25 seeded spots): each read gives a record, never a throw, and the reader still reads a good file after', async () => {
    const app11 = jpeg.indexOf(Buffer.from([0xff, 0xeb]));
    const length = jpeg.readUInt16BE(app11 + 2);
    let seed = 31;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const states = new Set<string>();
    for (let i = 0; i < 25; i++) {
      const bad = Buffer.from(jpeg);
      bad[app11 + 4 + Math.floor(next() * (length - 2))] = Math.floor(next() * 256);
      const c = await readC2pa(bad, 'jpeg');
      expect(c.present).toBe(true);
      states.add((c as C2paManifest).validation.state);
    }
    expect([...states].every((s) => s === 'valid' || s === 'invalid')).toBe(true);
    expect(((await readC2pa(jpeg, 'jpeg')) as C2paManifest).validation.state).toBe('valid');
  });

  it('files without a manifest: findC2pa finds none and the record says none', async () => {
    for (const f of ['paris.jpg', 'plain.png', 'nogps.jpg']) {
      const bytes = readFileSync(join(IMAGES, f));
      expect(findC2pa(bytes, f.endsWith('.png') ? 'png' : 'jpeg'), f).toBeUndefined();
      expect(await readC2pa(bytes, f.endsWith('.png') ? 'png' : 'jpeg'), f).toEqual({ present: false });
    }
  });

  it('the whole file is needed: bytes known to be partial are reported present but not checked', async () => {
    const c = (await readC2pa(jpeg, 'jpeg', { partial: 'only the first 16 MB were read' })) as C2paManifest;
    expect(c).toMatchObject({ present: true, validation: { state: 'unchecked', reason: 'only the first 16 MB were read' } });
  });
});
