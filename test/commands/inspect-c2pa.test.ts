/**
 * `geo inspect` on content credentials (issue 31, item 4): photos signed in the test with a
 * throwaway CA, signer and time-stamp authority (test/helpers/c2pa-sign.ts) show one line saying who
 * signed them, with what, when and whether it holds; --json gives the same as a `c2pa` object and
 * every tag as `metadata`. A changed pixel byte is invalid with its code, a file without
 * credentials says none, a manifest's own strings never reach the terminal raw, and the C2PA
 * reader is loaded only for a file that has a manifest.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestPki, makePki, signImage } from '../helpers/c2pa-sign.js';
import { runCli, spawnGeo } from '../helpers/run-cli.js';

const IMAGES = join(import.meta.dirname, '../../fixtures/images');
const GENERATOR = { name: 'geo-test-camera', version: '1.0' };
const dir = mkdtempSync(join(tmpdir(), 'geo-inspect-c2pa-'));
const signed = join(dir, 'signed.jpg');
const tampered = join(dir, 'tampered.jpg');
const hostile = join(dir, 'hostile.jpg');
let pki: TestPki;

/** The same file with one byte of its picture (the middle of the scan) changed. */
function flipScanByte(b: Buffer): Buffer {
  const out = Buffer.from(b);
  let pos = 2;
  while (out[pos] === 0xff && out[pos + 1] !== 0xda) pos += 2 + out.readUInt16BE(pos + 2);
  const at = pos + Math.floor((out.length - pos) / 2);
  out[at] = out[at]! ^ 0x01;
  return out;
}

beforeAll(async () => {
  pki = makePki();
  const paris = readFileSync(join(IMAGES, 'paris.jpg'));
  const bytes = await signImage(paris, pki, { title: 'paris.jpg', generator: GENERATOR, format: 'image/jpeg' });
  writeFileSync(signed, bytes);
  writeFileSync(tampered, flipScanByte(bytes));
  // A manifest that tries to draw on the terminal: OSC 8 hyperlink, colour, a bidi override.
  writeFileSync(hostile, await signImage(paris, pki, { title: 'evil\u001b]8;;https://attacker.example\u0007click\u001b]8;;\u0007\u001b[31m\u202e', generator: { name: 'x\u001b[2Jcam', version: '1' }, format: 'image/jpeg' }));
}, 60_000);

describe('geo inspect: content credentials', () => {
  it('--json: the c2pa summary (generator, signer, time, title, assertions, validation) and the metadata JSON', async () => {
    const r = await runCli(['inspect', '--json', signed]);
    expect(r.code, r.stderr).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o.c2pa).toMatchObject({
      present: true, container: 'JPEG APP11 (JUMBF)', title: 'paris.jpg', claim_generator: 'geo-test-camera 1.0', timestamp_authority: 'Geo Test TSA',
      signer: { name: 'Geo Test Signer (geo tests)', subject: 'CN=Geo Test Signer, O=geo tests', issuer: 'CN=Geo Test Root CA, O=geo tests' },
      validation: { state: 'valid', signer_trusted: false, failures: [{ code: 'signingCredential.untrusted' }] },
    });
    expect(o.c2pa.signed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    expect(o.c2pa.assertions).toContain('c2pa.actions.v2');
    expect(o.metadata.format).toBe('exiftool -j -n');
    expect(o.metadata.tags).toMatchObject({ Make: 'Apple', Model: 'iPhone 13', DateTimeOriginal: '2024:05:14 18:32:07' });
    expect(o.metadata.tags.GPSLatitude).toBeCloseTo(48.85837, 6);
    // What locate would send: without the manifest (APP11) and without EXIF.
    expect(o.upload.removed.map((x: { what: string }) => x.what)).toEqual(expect.arrayContaining(['C2PA/JUMBF (APP11)', 'EXIF (GPS, camera, capture details)']));
  });

  it('table: one "Content credentials" line: signed by whom, with what, when, valid with the reason', async () => {
    const r = await runCli(['inspect', signed]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/C2PA +Content credentials: signed by Geo Test Signer \(geo tests\) with geo-test-camera 1\.0 at \d{4}-\d\d-\d\dT[\d:]+\+00:00, valid \(signer on no trust list: signingCredential\.untrusted\)/);
    expect(r.stdout).toMatch(/claim +"paris\.jpg"; assertions c2pa\.actions\.v2, c2pa\.hash\.data; in JPEG APP11 \(JUMBF\)/);
    expect(r.stdout).toMatch(/signer +CN=Geo Test Signer, O=geo tests; issued by CN=Geo Test Root CA, O=geo tests \(es256\)/);
    expect(r.stdout).toMatch(/tags +\d+ metadata tags in the file \(--json shows them/);
  });

  it('one pixel byte changed after signing: invalid, assertion.dataHash.mismatch named (table and --json)', async () => {
    const r = await runCli(['inspect', tampered]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Content credentials: signed by Geo Test Signer \(geo tests\) .*, invalid \(assertion\.dataHash\.mismatch\)/);
    const j = JSON.parse((await runCli(['inspect', '--json', tampered])).stdout);
    expect(j.c2pa.validation.state).toBe('invalid');
    expect(j.c2pa.validation.failures.map((f: { code: string }) => f.code)).toContain('assertion.dataHash.mismatch');
  });

  it('a file without content credentials says none', async () => {
    const r = await runCli(['inspect', join(IMAGES, 'paris.jpg'), join(IMAGES, 'plain.png')]);
    expect(r.stdout.match(/^ {2}C2PA +none \(no content credentials in the file\)$/gm)).toHaveLength(2);
    const j = JSON.parse((await runCli(['inspect', '--json', join(IMAGES, 'paris.jpg')])).stdout);
    expect(j.c2pa).toEqual({ present: false });
  });

  it('--c2pa-trust with the CA: the signer is trusted; an unreadable or non-PEM file is exit 2 with a hint', async () => {
    const r = await runCli(['inspect', '--c2pa-trust', pki.caFile, signed]);
    expect(r.stdout).toMatch(/Content credentials: .*, valid, signer trusted/);
    const missing = await runCli(['inspect', '--c2pa-trust', join(dir, 'nope.pem'), signed]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/--c2pa-trust .*nope\.pem: cannot read \(ENOENT\)/);
    const notPem = await runCli(['inspect', '--c2pa-trust', join(IMAGES, 'paris.jpg'), signed]);
    expect(notPem.code).toBe(2);
    expect(notPem.stderr).toMatch(/no PEM certificate in it.*hint/s);
  });

  it('a manifest\'s own strings (title, generator) are escaped before the terminal, and stay parseable in --json', async () => {
    const r = await runCli(['inspect', hostile]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(r.stdout).toContain('"evil\\x1b]8;;https://attacker.example\\x07click');
    expect(r.stdout).toContain('with x\\x1b[2Jcam 1');
    const j = await runCli(['inspect', '--json', hostile]);
    expect(j.stdout).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(JSON.parse(j.stdout).c2pa.title).toBe('evil\u001b]8;;https://attacker.example\u0007click\u001b]8;;\u0007\u001b[31m\u202e');
  });

  it('the built binary compiles the C2PA reader (9 MB of WebAssembly) only for a file that has a manifest', async () => {
    const spy = join(dir, 'wasm-spy.cjs');
    const log = join(dir, 'wasm.log');
    // Every WebAssembly compile of more than 1 MB is written down (jq-wasm is not used here).
    writeFileSync(spy, `const fs = require('fs'); const note = (b) => { const n = b && (b.byteLength ?? b.length); if (n > 1e6) fs.appendFileSync(${JSON.stringify(log)}, n + '\\n'); };
for (const k of ['compile', 'instantiate']) { const f = WebAssembly[k]; WebAssembly[k] = function (b, ...r) { note(b); return f.call(WebAssembly, b, ...r); }; }`);
    writeFileSync(log, '');
    const plain = await spawnGeo(['inspect', '--json', join(IMAGES, 'paris.jpg')], { env: { NODE_OPTIONS: `--require ${spy}` } });
    expect(plain.code, plain.stderr).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('');
    const withCredentials = await spawnGeo(['inspect', '--json', signed], { env: { NODE_OPTIONS: `--require ${spy}` } });
    expect(withCredentials.code, withCredentials.stderr).toBe(0);
    expect(JSON.parse(withCredentials.stdout).c2pa.validation.state).toBe('valid');
    expect(readFileSync(log, 'utf8').trim().split('\n').map(Number)[0]).toBeGreaterThan(5e6);
  });
});
