/** Headless Chromium for the report test: find it, dump the DOM after scripts ran, take a screenshot. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
export const CHROMIUM = NAMES.find((n) => spawnSync(n, ['--version'], { stdio: 'ignore' }).status === 0);
export const CHROMIUM_SKIP = 'chromium missing: apt-get install -y chromium';

/**
 * The flags the brief fixes, plus: a virtual-time budget so Leaflet's timers and fitBounds finish
 * before the dump, and a resolver that fails every host, so the test proves the map draws with
 * no network at all (tiles simply do not load) and never depends on one.
 */
function flags(profile: string, virtualTime = true): string[] {
  return [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`,
    '--host-resolver-rules=MAP * ~NOTFOUND', ...(virtualTime ? ['--virtual-time-budget=5000'] : []), '--enable-logging=stderr', '--v=0',
  ];
}

export interface ChromiumRun {
  stdout: string;
  /** Chromium's log; page console messages appear as lines with ":CONSOLE". */
  log: string;
}

function run(extra: string[], file: string, virtualTime = true): ChromiumRun {
  const profile = mkdtempSync(join(tmpdir(), 'geo-chromium-'));
  try {
    const r = spawnSync(CHROMIUM!, [...flags(profile, virtualTime), ...extra, pathToFileURL(file).href], { encoding: 'utf8', timeout: 90_000, maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`chromium exited ${r.status}: ${r.stderr.slice(-2000)}`);
    return { stdout: r.stdout, log: r.stderr };
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

export function dumpDom(file: string): ChromiumRun {
  return run(['--dump-dom'], file);
}

export function screenshot(file: string, png: string, size = '1200,900'): ChromiumRun {
  return run([`--screenshot=${png}`, `--window-size=${size}`, '--hide-scrollbars'], file);
}

/**
 * The page as it stands once loaded, with no virtual time: for what the HTML itself shows (a
 * verdict, a table's layout, a frame strip), not what Leaflet draws later. What a person opening
 * the file sees first; no waiting on a time budget.
 */
export function dumpDomAtLoad(file: string): ChromiumRun {
  return run(['--dump-dom'], file, false);
}

export function screenshotAtLoad(file: string, png: string, size = '1200,900'): ChromiumRun {
  return run([`--screenshot=${png}`, `--window-size=${size}`, '--hide-scrollbars'], file, false);
}

/** Console lines the page produced (errors, CSP violations). */
export function consoleLines(log: string): string[] {
  return log.split('\n').filter((l) => l.includes(':CONSOLE'));
}

/** The page printed to PDF (its print CSS applied), once loaded: no virtual time, which hangs on some machines. */
export function printToPdfAtLoad(file: string, pdf: string): ChromiumRun {
  return run([`--print-to-pdf=${pdf}`, '--no-pdf-header-footer'], file, false);
}
