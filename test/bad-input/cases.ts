/**
 * The bad-input table (issue 7). Each row is one thing a user can get wrong; every row must end in
 * one `error: … — hint: …` line on stderr, nothing on stdout, the documented exit code (DESIGN.md:
 * 2 usage or invalid input, 3 no key) and no request at all. `setup` builds files in a fresh folder
 * per case and may return extra env; `argv` may use that folder.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../helpers/sandbox.js';

export interface BadInput {
  name: string;
  argv: string[] | ((dir: string) => string[]);
  stdin?: string | Buffer;
  env?: Record<string, string | undefined>;
  /** Runs before the CLI in the case's own folder; may return env for the run. */
  setup?: (dir: string) => Record<string, string> | void;
  exit: number;
  /** What the one line must mention, beyond "error:" and "hint:". */
  says?: RegExp;
  /** A known failure owned by another layer: run as it.fails until fixed there (why, for the report). */
  knownFailure?: string;
}

const IMG = (f: string) => join(FIXTURES, f);
const PARIS = IMG('paris.jpg');
const scoped = (...extra: string[]) => ['locate', PARIS, '--scope', 'Paris', '--center', '48.8566,2.3522', ...extra];
const write = (dir: string, name: string, data: string | Buffer) => writeFileSync(join(dir, name), data);
/** Random-looking bytes, the same on every run (sha256 blocks of a counter). */
const noise = (n: number) => Buffer.concat(Array.from({ length: Math.ceil(n / 32) }, (_, i) => createHash('sha256').update(`noise ${i}`).digest())).subarray(0, n);

/** A JPEG header then a hole: one byte over the limit on disk without writing 15 MB. */
function sparseJpeg(path: string, size: number): void {
  const fd = openSync(path, 'w');
  writeSync(fd, Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 0, 4, 0);
  writeSync(fd, Buffer.from([0xd9]), 0, 1, size - 1);
  closeSync(fd);
}

const files: BadInput[] = [
  { name: 'missing file', argv: ['locate', '/nonexistent/photo.jpg'], exit: 2, says: /no such file/ },
  { name: 'empty file', argv: ['locate', IMG('empty.jpg')], exit: 2, says: /empty/ },
  { name: 'folder with no images', setup: (d) => void (mkdirSync(join(d, 'none')), write(d, 'none/notes.txt', 'hello')), argv: (d) => ['locate', join(d, 'none')], exit: 2, says: /no images/ },
  { name: 'text file named .jpg', argv: ['locate', IMG('not-image.jpg')], exit: 2, says: /not an image/ },
  { name: 'PDF named .jpg', setup: (d) => write(d, 'doc.jpg', '%PDF-1.4\n%âãÏÓ\n1 0 obj\n'), argv: (d) => ['locate', join(d, 'doc.jpg')], exit: 2, says: /PDF/ },
  { name: 'HTML error page named .png', setup: (d) => write(d, 'page.png', '<!doctype html><title>404</title>'), argv: (d) => ['locate', join(d, 'page.png')], exit: 2, says: /HTML/ },
  { name: 'BMP named .jpg', setup: (d) => write(d, 'bmp.jpg', Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)])), argv: (d) => ['locate', join(d, 'bmp.jpg')], exit: 2, says: /BMP/ },
  // HEIC itself is converted to JPEG (test/image/heic.test.ts); bytes that only bear its name are not.
  { name: 'random bytes named .heic', setup: (d) => write(d, 'IMG_0001.heic', noise(4096)), argv: (d) => ['locate', join(d, 'IMG_0001.heic')], exit: 2, says: /IMG_0001\.heic is not an image \(unrecognised bytes\)/ },
  { name: 'file one byte over the 15,000,000-byte limit', setup: (d) => sparseJpeg(join(d, 'big.jpg'), 15_000_001), argv: (d) => ['locate', join(d, 'big.jpg')], exit: 2, says: /limit/ },
  { name: 'a path through a file', argv: ['locate', join(PARIS, 'x.jpg')], exit: 2 },
  { name: 'empty stdin', argv: ['locate', '-'], stdin: '', exit: 2, says: /stdin is empty/ },
  { name: 'base64 with a data: prefix on stdin', argv: ['locate', '-'], stdin: 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDA', exit: 2, says: /not an image/ },
  { name: 'raw base64 text on stdin (bytes expected)', argv: ['locate', '-'], stdin: '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDA==\n', exit: 2, says: /not an image/ },
  { name: 'inspect: missing file', argv: ['inspect', '/nonexistent/photo.jpg'], exit: 2 },
  { name: 'export: missing .ndjson file', argv: ['export', '/nonexistent/results.ndjson', '--format', 'geojson'], exit: 2 },
];

const values: BadInput[] = [
  { name: '--captured-at 2026-02-30 (no such day)', argv: scoped('--captured-at', '2026-02-30'), exit: 2, says: /captured_at/ },
  { name: '--captured-at 2025-02-29 (not a leap year)', argv: scoped('--captured-at', '2025-02-29'), exit: 2, says: /captured_at/ },
  { name: '--captured-at yesterday', argv: scoped('--captured-at', 'yesterday'), exit: 2, says: /captured_at/ },
  { name: '--captured-at without --scope', argv: ['locate', PARIS, '--captured-at', '2024-01-01'], exit: 2, says: /--scope/ },
  { name: '--radius 0', argv: scoped('--radius', '0'), exit: 2, says: /radius/ },
  { name: '--radius 501', argv: scoped('--radius', '501'), exit: 2, says: /radius/ },
  { name: '--radius ten', argv: scoped('--radius', 'ten'), exit: 2, says: /radius/ },
  { name: '--center 91,0', argv: ['locate', PARIS, '--scope', 'X', '--center', '91,0'], exit: 2, says: /lat/ },
  { name: '--center 0,181', argv: ['locate', PARIS, '--scope', 'X', '--center', '0,181'], exit: 2, says: /longitude 181/ },
  { name: '--center 48.85 (one number)', argv: ['locate', PARIS, '--scope', 'X', '--center', '48.85'], exit: 2, says: /--center/ },
  { name: '--scope of an unknown place without --center', argv: ['locate', PARIS, '--scope', 'Xyzzyville'], exit: 2, says: /--center/ },
  { name: '--depth 4', argv: ['locate', PARIS, '--depth', '4'], exit: 2, says: /depth/ },
  { name: '--depth 0', argv: ['locate', PARIS, '--depth', '0'], exit: 2, says: /depth/ },
  { name: '--depth 2.5', argv: ['locate', PARIS, '--depth', '2.5'], exit: 2, says: /depth/ },
  { name: 'unknown --effort', argv: ['locate', PARIS, '--effort', 'extreme'], exit: 2, says: /invalid_effort/ },
  { name: 'effort above depth (high at depth 1)', argv: ['locate', PARIS, '--effort', 'high', '--depth', '1'], exit: 2, says: /effort_exceeds_depth/ },
  { name: 'model other than orca-1.5', argv: ['locate', PARIS, '--model', 'orca-2'], exit: 2, says: /orca-1\.5/ },
  { name: 'Idempotency-Key of 257 characters', argv: ['locate', PARIS, '--idempotency-key', 'k'.repeat(257)], exit: 2, says: /256/ },
  { name: 'empty Idempotency-Key', argv: ['locate', PARIS, '--idempotency-key', ''], exit: 2, says: /256/ },
  { name: '--min-confidence 1.5', argv: ['locate', PARIS, '--min-confidence', '1.5'], exit: 2, says: /min-confidence/ },
  { name: '--min-confidence with --async', argv: ['locate', PARIS, '--async', '--min-confidence', '0.5'], exit: 2, says: /async/ },
  { name: '--max-credits -1', argv: ['locate', PARIS, '--max-credits', '-1'], exit: 2, says: /max-credits/ },
  {
    name: '--max-credits below the cost (depth 3 is 10)',
    argv: ['locate', PARIS, '--depth', '3', '--max-credits', '5'],
    exit: 2,
    says: /max-credits/,
  },
  { name: '--concurrency 0', argv: ['locate', PARIS, '--concurrency', '0'], exit: 2, says: /--concurrency must/ },
  { name: '--timeout 0', argv: ['--timeout', '0', 'credits'], exit: 2, says: /timeout/ },
  { name: '--timeout abc', argv: ['--timeout', 'abc', 'credits'], exit: 2, says: /timeout/ },
  { name: 'analyses --limit 0', argv: ['analyses', '--limit', '0'], exit: 2, says: /limit/ },
  { name: 'analyses --limit 201', argv: ['analyses', '--limit', '201'], exit: 2, says: /limit/ },
  { name: 'analyses --limit 1.5', argv: ['analyses', '--limit', '1.5'], exit: 2, says: /limit/ },
  { name: 'cases list --limit 0', argv: ['cases', 'list', '--limit', '0'], exit: 2, says: /limit/ },
  { name: 'http:// image URL (not loopback)', argv: ['locate', 'http://example.com/street.jpg'], exit: 2, says: /https/ },
  { name: 'ftp:// image URL', argv: ['locate', 'ftp://example.com/street.jpg'], exit: 2, says: /https/ },
  { name: 'file:// image URL', argv: ['locate', 'file:///etc/passwd'], exit: 2, says: /https/ },
];

const setting: BadInput[] = [
  { name: 'malformed base URL (ht!tp://x)', argv: ['--base-url', 'ht!tp://x', 'credits'], exit: 2, says: /base URL/ },
  { name: 'plain-http base URL, not loopback', argv: ['--base-url', 'http://example.invalid', 'credits'], exit: 2, says: /plain http/ },
  { name: 'plain-http GEO_BASE_URL, private address', argv: ['credits'], env: { GEO_BASE_URL: 'http://10.1.2.3:4010' }, exit: 2, says: /plain http/ },
  { name: 'ftp base URL', argv: ['--base-url', 'ftp://example.com', 'credits'], exit: 2, says: /https/ },
  { name: 'base URL with user:password', argv: ['--base-url', 'https://user:pw@example.com', 'credits'], exit: 2, says: /credentials/ },
  { name: 'corrupted config file', setup: (d) => (write(d, 'config.json', '{not json'), { GEO_CONFIG_DIR: d }), argv: ['credits'], exit: 2, says: /not valid JSON/ },
  {
    // Tests run as root, where chmod 000 does not stop reads; a FILE where the folder should be is
    // refused for every user, so it stands in for "unreadable config folder".
    name: 'unreadable config folder (GEO_CONFIG_DIR is a file)',
    setup: (d) => (write(d, 'not-a-folder', 'x'), { GEO_CONFIG_DIR: join(d, 'not-a-folder') }),
    argv: ['credits'],
    exit: 2,
    says: /config/,
  },
  { name: 'unknown profile (--profile nope)', argv: ['--profile', 'nope', 'credits'], exit: 2, says: /nope/ },
  { name: 'unknown profile (GEO_PROFILE=nope)', argv: ['usage'], env: { GEO_PROFILE: 'nope' }, exit: 2, says: /GEO_PROFILE/ },
  { name: 'no API key at all', argv: ['credits'], env: { GEO_API_KEY: undefined }, exit: 3, says: /no API key/ },
  { name: 'unknown option', argv: ['locate', PARIS, '--bogus'], exit: 2, says: /--bogus/ },
  { name: 'unknown command', argv: ['frobnicate'], exit: 2, says: /frobnicate/ },
  { name: 'missing argument', argv: ['locate'], exit: 2, says: /input/ },
  { name: 'too many arguments', argv: ['docs', 'extra'], exit: 2, says: /too many/ },
  { name: '--format bogus', argv: ['--format', 'bogus', 'credits'], exit: 2, says: /bogus/ },
  { name: '--format csv where credits has no csv', argv: ['--format', 'csv', 'credits'], exit: 2, says: /csv/ },
  { name: '--format csv on cases create (the case must not be created)', argv: ['--format', 'csv', 'cases', 'create', '--name', 'Harbour'], exit: 2, says: /csv/ },
  { name: '--format kml on analyses', argv: ['analyses', '--format', 'kml'], exit: 2, says: /kml/ },
  { name: 'config set depth 7', argv: ['config', 'set', 'depth', '7'], exit: 2, says: /depth/ },
  { name: 'config set of an unknown key', argv: ['config', 'set', 'colour', 'red'], exit: 2, says: /colour/ },
  { name: 'keys add with an unusable name', argv: ['keys', 'add', 'bad name!', '--stdin'], stdin: 'orca_live_x', exit: 2, says: /name/ },
  { name: 'keys add --stdin with nothing piped', argv: ['keys', 'add', 'work', '--stdin'], stdin: '', exit: 2, says: /empty/ },
  { name: 'keys add with no terminal and no --stdin', argv: ['keys', 'add', 'work'], exit: 2, says: /never from arguments/ },
  { name: 'keys use of an unknown profile', argv: ['keys', 'use', 'nope'], exit: 2, says: /nope/ },
  { name: 'cases create without --name and no terminal', argv: ['cases', 'create', '--no-input'], exit: 2, says: /name/ },
  { name: 'completion for an unknown shell', argv: ['completion', 'tcsh'], exit: 2, says: /tcsh/ },
  { name: 'sandbox --port 99999', argv: ['sandbox', '--port', '99999'], exit: 2, says: /port/ },
];

export const CASES: BadInput[] = [...files, ...values, ...setting];
