/**
 * Issue 30, section 5, "geo writes only what it owns", done as an attacker would: in the place of
 * every file geo writes (--report, export --out in each format and with --case, eval --report,
 * docs --html, cases bundle, --journal) a symbolic link to a file of the user's, a dangling link,
 * a second name (hard link) of a file, a FIFO, a folder, and an input of the same run. Each is
 * refused with one line and exit 2, the file behind it unchanged, nothing created beside it, and a
 * FIFO never blocks. Under umask 000 what geo writes is 0600, or 0644 with --file-mode 644; a file
 * of its own with one name is replaced whole (a rename: a reader never sees half of it).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { caseRunner, tmp } from '../cases/helpers.js';
import { type CliRun, GEO_BIN, binEnv, finished } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const PRECIOUS = 'precious: written by the user, not by geo\n';
const errorLines = (r: CliRun) => r.stderr.split('\n').filter((l) => l.startsWith('error:'));
const requests = () => sb.ledger().keys[KEYS.pro]?.requests ?? 0;

let run: ReturnType<typeof caseRunner>['run'];
let data: string;
/** A copy of paris.jpg the case's result was made from: the photo the case's report embeds. */
let casePhoto: string;
/** geo locate's NDJSON of that photo: a source export and eval read. */
let results: string;
let sha: string;

beforeAll(async () => {
  ({ run, data } = caseRunner(sb));
  const dir = tmp('geo-writes-inputs-');
  casePhoto = join(dir, 'photo.jpg');
  copyFileSync(FIXTURES + 'paris.jpg', casePhoto);
  expect((await run(['cases', 'create', '--name', 'Writes', '--local'])).code).toBe(0);
  const located = await run(['locate', casePhoto, '--case', 'Writes', '--format', 'ndjson']);
  expect(located.code, located.stderr).toBe(0);
  results = join(dir, 'run.ndjson');
  writeFileSync(results, located.stdout);
  sha = JSON.parse(located.stdout).sha256;
}, 60_000);

interface Writer {
  name: string;
  /** The target's file name (the bundle must end in .zip). */
  file: string;
  argv: (target: string) => string[];
  /** An input of the same run, named as the target: argv with it, and the file it is. */
  asInput?: () => { argv: string[]; file: string };
  /** Takes --file-mode (the journal holds idempotency keys: always 0600). */
  mode?: boolean;
  /** Replaces a file of the user's (a journal is continued, not replaced: it must be a journal). */
  replaces?: boolean;
}

const EXPORT_FORMATS = ['geojson', 'kml', 'kmz', 'csv', 'json', 'ndjson', 'html'];
/** A fresh copy of the results file, so a geo that wrote over it cannot spoil another test. */
function resultsCopy(): string {
  const f = join(tmp('geo-writes-src-'), 'run.ndjson');
  copyFileSync(results, f);
  return f;
}

const WRITERS: Writer[] = [
  {
    name: 'locate --report', file: 'report.html', mode: true, argv: (t) => ['locate', casePhoto, '--report', t],
    asInput: () => {
      const photo = join(tmp(), 'photo.jpg');
      copyFileSync(FIXTURES + 'tokyo.jpg', photo);
      return { argv: ['locate', photo, '--report', photo], file: photo };
    },
  },
  {
    name: 'eval --report', file: 'eval.html', mode: true, argv: (t) => ['eval', '--from', results, '--report', t],
    asInput: () => {
      const f = resultsCopy();
      return { argv: ['eval', '--from', f, '--report', f], file: f };
    },
  },
  { name: 'docs --html', file: 'docs.html', mode: true, argv: (t) => ['docs', '--html', t] },
  ...EXPORT_FORMATS.map((f): Writer => ({
    name: `export --format ${f} --out`, file: `out.${f}`, mode: true, argv: (t) => ['export', sha, '--format', f, '--out', t],
    asInput: () => {
      const src = resultsCopy();
      return { argv: ['export', src, '--format', f, '--out', src], file: src };
    },
  })),
  {
    name: 'export --case --out', file: 'case.html', mode: true, argv: (t) => ['export', '--case', 'Writes', '--format', 'html', '--out', t],
    // The case's own photo, which its report embeds: evidence, and read by this very run.
    asInput: () => ({ argv: ['export', '--case', 'Writes', '--format', 'html', '--out', casePhoto], file: casePhoto }),
  },
  { name: 'cases bundle', file: 'case.zip', mode: true, argv: (t) => ['cases', 'bundle', 'Writes', t] },
  {
    name: 'locate --journal', file: 'batch.ndjson', replaces: false, argv: (t) => ['locate', casePhoto, '--journal', t],
    asInput: () => {
      const photo = join(tmp(), 'photo.jpg');
      copyFileSync(FIXTURES + 'sydney.jpg', photo);
      return { argv: ['locate', photo, '--journal', photo], file: photo };
    },
  },
];

/** Everything in `dir` but the names given: a writer that failed must leave no temporary file behind. */
const others = (dir: string, ...names: string[]) => readdirSync(dir).filter((n) => !names.includes(n));

/** The built binary, killed if it has not ended within `ms`: a FIFO must never block geo. */
async function spawnBounded(argv: string[], ms: number, opts: { umask?: string } = {}): Promise<CliRun & { timedOut: boolean }> {
  const env = binEnv({ GEO_DATA_DIR: data, GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro });
  const child = opts.umask === undefined
    ? spawn(process.execPath, [GEO_BIN, ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn('sh', ['-c', `umask ${opts.umask} && exec "$0" "$@"`, process.execPath, GEO_BIN, ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, ms);
  const r = await finished(child);
  clearTimeout(timer);
  return { ...r, timedOut };
}

describe.each(WRITERS)('$name', (w) => {
  it('a symbolic link to a file of the user\'s: refused (exit 2, one line), the file unchanged, the link left', async () => {
    const dir = tmp();
    const victim = join(tmp(), 'victim.txt');
    writeFileSync(victim, PRECIOUS);
    symlinkSync(victim, join(dir, w.file));
    const r = await run(w.argv(join(dir, w.file)));
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r)).toEqual([expect.stringMatching(/refusing to use \S+ as [^:]+: it is a symbolic link — hint: geo never writes through a link/)]);
    expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
    expect(lstatSync(join(dir, w.file)).isSymbolicLink()).toBe(true);
    expect(others(dir, w.file)).toEqual([]);
  });

  it('a dangling symbolic link: refused, and what it points to is never created', async () => {
    const dir = tmp();
    const nowhere = join(tmp(), 'created-by-geo');
    symlinkSync(nowhere, join(dir, w.file));
    const r = await run(w.argv(join(dir, w.file)));
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r)).toEqual([expect.stringMatching(/: it is a symbolic link — hint: geo never writes through a link/)]);
    expect(existsSync(nowhere)).toBe(false);
    expect(others(dir, w.file)).toEqual([]);
  });

  it('a second name (hard link) of a file: refused, the file under its other name unchanged', async () => {
    const dir = tmp();
    const twin = join(tmp(), 'twin.txt');
    writeFileSync(twin, PRECIOUS);
    linkSync(twin, join(dir, w.file));
    const r = await run(w.argv(join(dir, w.file)));
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r)).toEqual([expect.stringMatching(/refusing to use \S+ as [^:]+: it has 2 names \(hard links\) — hint: geo writes only a file with one name/)]);
    expect(readFileSync(twin, 'utf8')).toBe(PRECIOUS);
    expect(readFileSync(join(dir, w.file), 'utf8')).toBe(PRECIOUS);
    expect(others(dir, w.file)).toEqual([]);
  });

  it('a folder: refused with one line', async () => {
    const dir = tmp();
    mkdirSync(join(dir, w.file));
    const r = await run(w.argv(join(dir, w.file)));
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r)).toEqual([expect.stringMatching(/is a folder/)]);
    expect(readdirSync(join(dir, w.file))).toEqual([]);
  });

  it('a FIFO: refused at once with one line (the built binary, killed after 15 s if it blocks)', async () => {
    const dir = tmp();
    execFileSync('mkfifo', [join(dir, w.file)]);
    const r = await spawnBounded(w.argv(join(dir, w.file)), 15_000);
    expect(r.timedOut, 'geo blocked on the FIFO').toBe(false);
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r)).toEqual([expect.stringMatching(/: it is a FIFO \(named pipe\)/)]);
    expect(lstatSync(join(dir, w.file)).isFIFO()).toBe(true);
  }, 20_000);

  it.runIf(w.asInput)('an input of the same run: refused before anything is read or sent, the input unchanged', async () => {
    const { argv, file } = w.asInput!();
    const before = readFileSync(file);
    const sent = requests();
    const r = await run(argv);
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r)).toEqual([expect.stringMatching(/refusing to use \S+ as [^:]+: it is an input of this run .*— hint: /)]);
    expect(readFileSync(file)).toEqual(before);
    expect(requests()).toBe(sent);
  });

  it(`${w.replaces === false ? 'a new file' : 'a file of its own with one name is replaced whole'}, 0600 under umask 000`, async () => {
    const dir = tmp();
    const target = join(dir, w.file);
    if (w.replaces !== false) writeFileSync(target, 'an older copy', { mode: 0o644 });
    const r = await spawnBounded(w.argv(target), 20_000, { umask: '000' });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(target, 'utf8')).not.toBe('an older copy');
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(others(dir, w.file)).toEqual([]);
  }, 25_000);

  it.runIf(w.mode)('--file-mode 644: readable by others (asked for), under umask 000 and umask 077 alike', async () => {
    for (const umask of ['000', '077']) {
      const target = join(tmp(), w.file);
      const r = await spawnBounded([...w.argv(target), '--file-mode', '644'], 20_000, { umask });
      expect(r.code, r.stderr).toBe(0);
      expect(statSync(target).mode & 0o777, `umask ${umask}`).toBe(0o644);
    }
  }, 45_000);
});

describe('--file-mode', () => {
  it.each(['666', '777', '0755', 'rw', ''])('%s is refused (exit 2): only 600 and 644', async (mode) => {
    const r = await run(['export', sha, '--format', 'csv', '--out', join(tmp(), 'x.csv'), '--file-mode', mode]);
    expect(r.code).toBe(2);
    expect(errorLines(r)).toEqual([expect.stringMatching(/--file-mode takes 600 \(only you\) or 644 \(everyone on this machine may read it\)/)]);
  });
});

describe('inputs that are not named on the command line', () => {
  it('geo locate FOLDER --report FOLDER/photo.jpg: a photo found in the folder is refused before anything is sent', async () => {
    const dir = tmp();
    copyFileSync(FIXTURES + 'newyork.jpg', join(dir, 'a.jpg'));
    copyFileSync(FIXTURES + 'sydney.jpg', join(dir, 'b.jpg'));
    const before = readFileSync(join(dir, 'b.jpg'));
    const sent = requests();
    const r = await run(['locate', dir, '--report', join(dir, 'b.jpg')], { env: { GEO_DATA_DIR: tmp('geo-writes-fresh-') } });
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r)).toEqual([expect.stringMatching(/refusing to use \S+b\.jpg as the report: it is an input of this run/)]);
    expect(readFileSync(join(dir, 'b.jpg'))).toEqual(before);
    expect(requests()).toBe(sent);
  });

  it('geo export SHA --format html --out PHOTO: the photo the record was made from (the report embeds it) is refused', async () => {
    const before = readFileSync(casePhoto);
    const r = await run(['export', sha, '--format', 'html', '--out', casePhoto]);
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r)).toEqual([expect.stringMatching(/refusing to use \S+photo\.jpg as the export: it is an input of this run/)]);
    expect(readFileSync(casePhoto)).toEqual(before);
  });
});
