/**
 * geo cases annotate: a working copy of each original with its clues' boxes drawn, kept and logged
 * as working_copy_made, the original never changed. On the sandbox: a committed fixture (depth 3)
 * and a larger photo stored sideways (EXIF orientation 6, depth 2) located into one case; the
 * copy's pixels are read at the edges the clue's fractions give, on the image as displayed.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOX_RGB } from '../../src/image/annotate.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { makeKey, tmp as sshTmp } from '../helpers/ssh.js';
import { dbRows } from '../helpers/store.js';
import { caseId, caseRunner, custodyOf, events, tmp } from './helpers.js';

const sb = withSandbox();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
type Bbox = { x: number; y: number; width: number; height: number };
type Clue = { label: string; bbox?: Bbox };
let c: ReturnType<typeof caseRunner> & { id: string; dir: string; out: string; paris: string; side: string; clues: Clue[][] };

/** A 400x300 gradient stored sideways: shown 300 wide and 400 high once its orientation is applied. */
async function sidewaysPhoto(path: string): Promise<void> {
  const [w, h] = [400, 300];
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw.set([Math.round((x * 255) / w), Math.round((y * 255) / h), 60], (y * w + x) * 3);
  writeFileSync(path, await sharp(raw, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer());
}

beforeAll(async () => {
  const r = caseRunner(sb);
  const dir = tmp();
  const paris = join(dir, 'paris.jpg');
  copyFileSync(FIXTURES + 'paris.jpg', paris);
  const side = join(dir, 'side.jpg');
  await sidewaysPhoto(side);
  expect((await r.run(['cases', 'create', '--name', 'Scene', '--local'])).code).toBe(0);
  const clues: Clue[][] = [];
  for (const [file, depth] of [[paris, '3'], [side, '2']] as const) {
    const l = await r.run(['locate', file, '--depth', depth, '--case', 'Scene', '--json']);
    expect(l.code, l.stderr).toBe(0);
    clues.push((JSON.parse(l.stdout) as { visual_clues: Clue[] }).visual_clues);
  }
  c = { ...r, id: caseId(r.data, 'Scene'), dir, out: join(dir, 'copies'), paris, side, clues };
}, 60_000);

const copies = () => custodyOf(c.data, c.id).filter((e) => e.event === 'working_copy_made');
const boxed = (n: number) => c.clues[n - 1]!.flatMap((cl, m) => (cl.bbox ? [{ id: `r${n}.clue${m + 1}`, bbox: cl.bbox }] : []));

describe('geo cases annotate', () => {
  it('makes a PNG working copy of each original with a boxed clue, keeps it, logs working_copy_made with its fields; the originals are unchanged', async () => {
    const before = [readFileSync(c.paris), readFileSync(c.side)];
    expect(boxed(1).length).toBeGreaterThan(0);
    expect(boxed(2).length).toBeGreaterThan(0);
    const r = await c.run(['cases', 'annotate', 'Scene', '--out', c.out, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const logged = copies();
    expect(logged).toHaveLength(2);
    const json = JSON.parse(r.stdout) as { copies: Array<{ entry: number; appended: boolean; file: string; sha256: string }> };
    [c.paris, c.side].forEach((path, i) => {
      const n = i + 1;
      const file = join(c.out, `r${n}-annotated.png`);
      const bytes = readFileSync(file);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(logged[i]!.data.copy).toMatchObject({
        of: { sha256: sha(before[i]!), input_path: path }, result: { ref: `r${n}` }, sha256: sha(bytes), size: bytes.length, media_type: 'image/png',
        boxes: boxed(n).map((b) => ({ clue: b.id, x: expect.any(Number), y: expect.any(Number), width: expect.any(Number), height: expect.any(Number) })),
      });
      expect((logged[i]!.data.copy as { method: string }).method).toMatch(/^geo \S+ cases annotate: boxes of visual_clues drawn with sharp \d+\.\d+\.\d+ \(libvips [\d.]+\)$/);
      expect(json.copies[i]).toMatchObject({ entry: logged[i]!.seq, appended: true, file, sha256: sha(bytes) });
      // Kept in the store as the entry names it, read back as an outside observer would.
      expect(dbRows<{ size: number; media_type: string }>(c.data, 'SELECT size, media_type FROM kept_files WHERE sha256 = ?', sha(bytes))).toEqual([{ size: bytes.length, media_type: 'image/png' }]);
    });
    // Read, never written: each original's bytes and sha256 as before.
    expect(sha(readFileSync(c.paris))).toBe(sha(before[0]!));
    expect(readFileSync(c.side).equals(before[1]!)).toBe(true);
  });

  it('each box stands where its clue\'s fractions say on the image as displayed (EXIF orientation applied): the box colour on its four edges, the photo inside', async () => {
    const copy = await sharp(readFileSync(join(c.out, 'r2-annotated.png'))).raw().toBuffer({ resolveWithObject: true });
    const shown = await sharp(readFileSync(c.side)).rotate().raw().toBuffer({ resolveWithObject: true });
    const { width: W, height: H, channels } = copy.info;
    expect([W, H]).toEqual([300, 400]);
    const px = (img: typeof copy, x: number, y: number) => [...img.data.subarray((y * W + x) * img.info.channels, (y * W + x) * img.info.channels + 3)];
    const entry = copies()[1]!.data.copy as { boxes: Array<{ clue: string; x: number; y: number; width: number; height: number }> };
    for (const { id, bbox } of boxed(2)) {
      const [x0, y0] = [Math.round(bbox.x * W), Math.round(bbox.y * H)];
      const [x1, y1] = [Math.min(W, Math.round((bbox.x + bbox.width) * W)), Math.min(H, Math.round((bbox.y + bbox.height) * H))];
      expect(entry.boxes.find((b) => b.clue === id)).toEqual({ clue: id, x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
      const [mx, my] = [Math.floor((x0 + x1) / 2), Math.floor((y0 + y1) / 2)];
      for (const [x, y] of [[x0, my], [x1 - 1, my], [mx, y0], [mx, y1 - 1]] as const) {
        expect(px(copy, x, y), `${id} at ${x},${y}`).toEqual([...BOX_RGB]);
        expect(px(shown, x, y)).not.toEqual([...BOX_RGB]);
      }
      // An outline, not a fill: inside it (8 px in from each edge) the photo's own pixels, but where another box or label crosses.
      let same = 0;
      let all = 0;
      for (let y = y0 + 8; y < y1 - 8; y++) for (let x = x0 + 8; x < x1 - 8; x++, all++) if (px(copy, x, y).join() === px(shown, x, y).join()) same++;
      expect(all).toBeGreaterThan(100);
      expect(same / all, id).toBeGreaterThan(0.5);
    }
    expect(channels).toBeGreaterThanOrEqual(3);
  });

  it('--jpeg: a JPEG copy, logged beside the PNG, its outlines still the box colour (within JPEG\'s rounding)', async () => {
    const r = await c.run(['cases', 'annotate', 'Scene', 'r2', '--jpeg', '--out', c.out]);
    expect(r.code, r.stderr).toBe(0);
    const bytes = readFileSync(join(c.out, 'r2-annotated.jpg'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(copies().at(-1)!.data.copy).toMatchObject({ result: { ref: 'r2' }, sha256: sha(bytes), size: bytes.length, media_type: 'image/jpeg' });
    const img = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const { x, y, height } = (copies().at(-1)!.data.copy as { boxes: Array<{ x: number; y: number; height: number }> }).boxes[0]!;
    const at = ((y + Math.floor(height / 2)) * img.info.width + x) * img.info.channels;
    [...img.data.subarray(at, at + 3)].forEach((v, k) => expect(Math.abs(v - BOX_RGB[k]!)).toBeLessThan(48));
  });

  it('annotating the same results again makes the same bytes and appends nothing', async () => {
    const entries = custodyOf(c.data, c.id).length;
    const r = await c.run(['cases', 'annotate', 'Scene', 'r1', 'r2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('already made a working copy of r1');
    expect(r.stdout).toContain('already made a working copy of r2');
    expect((await c.run(['cases', 'annotate', 'Scene', 'r2', '--jpeg'])).stdout).toMatch(/^already made a working copy of r2 /);
    expect(custodyOf(c.data, c.id)).toHaveLength(entries);
    const r1 = await c.run(['cases', 'annotate', 'Scene', 'r1', '--json']);
    expect(JSON.parse(r1.stdout).copies).toEqual([expect.objectContaining({ appended: false, entry: copies()[0]!.seq, sha256: (copies()[0]!.data.copy as { sha256: string }).sha256 })]);
  });
});

describe('geo cases annotate with a signing key chosen', () => {
  it('the entry names the key, and the head is signed after it: the case verifies with --require-signature', async () => {
    const config = tmp('geo-annotate-key-');
    const key = makeKey(sshTmp('geo-annotate-keys-'), 'alice', { comment: 'alice@example.org' });
    const { data, run } = caseRunner(sb);
    const geo = (argv: string[]) => run(argv, { env: { GEO_CONFIG_DIR: config, HOME: config } });
    expect((await geo(['keys', 'signing', 'use', key.path, '--principal', 'alice@example.org'])).code).toBe(0);
    expect((await geo(['cases', 'create', '--name', 'Signed', '--local'])).code).toBe(0);
    expect((await geo(['locate', FIXTURES + 'paris.jpg', '--depth', '3', '--case', 'Signed'])).code).toBe(0);
    const r = await geo(['cases', 'annotate', 'Signed']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/\nsigned the head \(entry \d+\) as alice@example\.org, key SHA256:/);
    const log = custodyOf(data, caseId(data, 'Signed'));
    expect(events(log).slice(-2)).toEqual(['working_copy_made', 'head_signed']);
    expect(log.at(-2)!.key).toBe((log.at(-1)!.data.signature as { fingerprint: string }).fingerprint);
    expect((await geo(['cases', 'verify', 'Signed', '--require-signature', '--allow-sandbox'])).code).toBe(0);
  });
});
