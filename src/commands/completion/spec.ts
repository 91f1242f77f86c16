/**
 * What the completion scripts offer. Commands are loaded lazily, so `geo completion` cannot see
 * the other nouns' flags at run time without loading them all; this list is kept instead, and
 * test/commands/completion.test.ts fails when it drifts from the real commander program.
 * A flag ending in "=" takes a value.
 */
export interface CmdSpec {
  description: string;
  flags: string[];
  subcommands?: Record<string, CmdSpec>;
  /** Other names of the command (`ls` for every `list`), completed like it. */
  aliases?: string[];
  /** What positional arguments are: files, profile names, or a fixed list. */
  args?: 'files' | 'profiles' | 'config-keys' | readonly string[];
  /** What --format takes here, when not table, json and ndjson (export has no table). */
  formats?: readonly string[];
}

/** --json's field list is optional, so it is completed as a flag (its value is free text). */
export const GLOBAL_FLAGS = ['--json', '--jq=', '--jq-timeout=', '--format=', '--profile=', '--base-url=', '--no-color', '--quiet', '--debug', '--timeout=', '--no-input', '--yes', '--sandbox', '--store=', '--version', '--help'];

/** Values offered after a flag, whatever the command. */
export const FLAG_VALUES: Record<string, readonly string[] | 'files' | 'profiles'> = {
  // The formats most commands take; a command with others says so (CmdSpec.formats, formatsOf).
  '--format': ['table', 'json', 'ndjson'],
  '--depth': ['1', '2', '3'],
  '-d': ['1', '2', '3'],
  '--effort': ['instant', 'low', 'medium', 'high'],
  '-e': ['instant', 'low', 'medium', 'high'],
  '--profile': 'profiles',
  '--journal': 'files',
  '--from-file': 'files',
  '--from': 'files',
  '--truth': 'files',
  '--resume': 'files',
  '--report': 'files',
  '--html': 'files',
  '--out': 'files',
  '--output': 'files',
  '--input': 'files',
  '--method': ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'],
  '-X': ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'],
  '--allow-dir': 'files',
  '--file-mode': ['600', '644'],
  '--exhibit': 'files',
  '--area': 'files',
  '--confidence': ['confirmed', 'probable', 'possible'],
};

const leaf = (description: string, flags: string[] = [], args?: CmdSpec['args']): CmdSpec => ({ description, flags, ...(args ? { args } : {}) });

export const COMMANDS: Record<string, CmdSpec> = {
  locate: { ...leaf('locate images: files, folders, - (stdin), https URLs or a --from-file list', [
    '--depth=', '--effort=', '--scope=', '--center=', '--radius=', '--captured-at=', '--batch-id=', '--async', '--model=', '--idempotency-key=',
    '--from-file=', '--concurrency=', '--journal=', '--resume=', '--fresh', '--downscale', '--keep-metadata', '--service-fetch', '--keep-original', '--reuse-similar',
    '--dry-run', '--max-credits=', '--min-confidence=', '--report=', '--file-mode=', '--no-store', '--case=',
    '--together', '--every=', '--scene=', '--max-frames=', '--max-duration=', '--agree-km=',
  ], 'files'), formats: ['table', 'json', 'ndjson', 'csv', 'geojson', 'kml', 'kmz', 'html'] },
  inspect: leaf('local, free: hashes, EXIF GPS/time/camera, offline place name, C2PA', ['--c2pa-trust='], 'files'),
  credits: leaf('credit balance'),
  usage: leaf('usage status'),
  analyses: leaf('saved analyses', ['--search=', '--city=', '--limit=']),
  cases: {
    description: 'investigation cases: on the service and on this machine',
    flags: [],
    subcommands: {
      list: { ...leaf('list cases, the service\'s and the local ones', ['--team=', '--limit=']), aliases: ['ls'] },
      create: leaf('create a case (on the service and here)', ['--name=', '--description=', '--team=', '--local']),
      link: leaf('link stored results to a local case', [], 'files'),
      show: leaf('a local case: results, map links, custody'),
      verify: leaf('check a case bundle or a local case', ['--allow-sandbox', '--allowed-signers=', '--tsa-ca=', '--require-signature', '--require-timestamp', '--require-reviews='], 'files'),
      bundle: leaf('write a local case into a verifiable zip', ['--with-originals', '--file-mode='], 'files'),
      sign: leaf('sign a local case\'s custody head with your SSH key', ['--key=']),
      stamp: leaf('RFC 3161 timestamps of a local case\'s head (queued offline)', ['--tsa=', '--tsa-ca=', '--pending']),
      note: leaf('an observation or hypothesis, with its results, clues and exhibits', ['--observation=', '--hypothesis=', '--result=', '--clue=', '--exhibit=', '--source=']),
      clues: leaf('a local case\'s clues by id, with judgements; accept or reject one', ['--because='], ['accept', 'reject']),
      'rule-out': leaf('a place ruled out: a point with a radius, or a GeoJSON polygon', ['--at=', '--within=', '--area=', '--because=']),
      conclude: leaf('the conclusion: where, within how many metres, how sure, why', ['--at=', '--within=', '--confidence=', '--because=', '--result=']),
      review: leaf('a second analyst\'s review of the conclusion, signed with their own key', ['--approve', '--request-changes', '--because=', '--key=']),
      annotate: leaf('the clues\' boxes drawn on a working copy of each original', ['--out=', '--jpeg', '--file-mode=']),
      report: leaf('the case as a report a person reads (HTML, Markdown)', ['--out=', '--file-mode=']),
      work: leaf('work a case on a terminal: judge clues, note, rule out, conclude'),
    },
  },
  keys: {
    description: 'API key profiles',
    flags: [],
    subcommands: {
      add: leaf('store a key (hidden prompt or --stdin)', ['--stdin', '--no-verify', '--insecure-storage']),
      list: { ...leaf('list profiles'), aliases: ['ls'] },
      use: leaf('make a profile active', [], 'profiles'),
      remove: { ...leaf('delete a profile', [], 'profiles'), aliases: ['rm'] },
      migrate: leaf('move file keys into the OS keyring', [], 'profiles'),
      show: leaf('which key, base URL and profile win now'),
      test: leaf('check the key with a credits call'),
      // Its verbs are offered as its arguments: the spec is two levels deep.
      signing: leaf('the Ed25519 key that signs case heads', [], ['create', 'show', 'use', 'list', 'test']),
    },
  },
  config: {
    description: 'defaults: depth, format, confirm_threshold, accessible, tsa',
    flags: [],
    subcommands: {
      get: leaf('print a default', [], 'config-keys'),
      set: leaf('change a default', [], 'config-keys'),
      unset: leaf('forget a default', [], 'config-keys'),
      list: { ...leaf('all defaults'), aliases: ['ls'] },
    },
  },
  docs: leaf('the HTML API documentation', ['--open', '--html=', '--file-mode=']),
  sandbox: leaf('run the local reference server', ['--host=', '--port=', '--latency=', '--rate-limit=', '--rate-window=', '--rate-algorithm=', '--faults=', '--seed=', '--truth=', '--truth-error=']),
  export: { ...leaf('turn results into geojson, kml, kmz, csv or html files', ['--all', '--history', '--include-sandbox', '--out=', '--file-mode=', '--case='], 'files'), formats: ['geojson', 'kml', 'kmz', 'csv', 'json', 'ndjson', 'html'] },
  eval: leaf('accuracy and calibration on images with a known position', [
    '--depth=', '--effort=', '--truth=', '--correct-within=', '--from=', '--from-file=', '--concurrency=', '--fresh', '--downscale', '--keep-metadata',
    '--dry-run', '--max-credits=', '--report=', '--file-mode=', '--no-store', '--case=', '--every=', '--scene=', '--max-frames=', '--max-duration=', '--agree-km=', '--together',
    '--claims', '--within=', '--claim-distances=', '--seed=', '--scoped', '--copies=',
  ], 'files'),
  claims: {
    description: 'claim checks: is each photo where they say?',
    flags: [],
    subcommands: {
      check: { ...leaf('check where photos are said to have been taken', [
        '--at=', '--within=', '--captured-at=', '--depth=', '--scoped', '--dry-run', '--max-credits=', '--fresh', '--concurrency=', '--no-store', '--report=', '--file-mode=', '--case=', '--fail-on=',
      ], 'files'), formats: ['table', 'json', 'ndjson', 'csv', 'geojson', 'kml', 'html'] },
    },
  },
  history: {
    description: 'stored results, offline and free',
    flags: ['--search=', '--limit='],
    subcommands: { show: leaf('a stored result (or a video\'s consensus) as locate showed it', ['--depth=', '--agree-km='], 'files') },
  },
  api: leaf('a raw request to the configured service (like gh api)', ['--method=', '--raw-field=', '--field=', '--header=', '--input=', '--include', '--silent', '--paginate']),
  mcp: leaf('serve geo to an AI agent over stdio (MCP)', ['--max-credits-per-call=', '--max-credits=', '--read-only', '--allow-dir=']),
  store: {
    description: "which store answers (this machine's or a team's PostgreSQL), moving a local store in, a team's credit budget",
    flags: [],
    subcommands: {
      status: leaf('the store in use: where, schema version, round trip, counts'),
      push: leaf("copy this machine's local store into the team store"),
      migrate: leaf("bring the team store's schema to this geo's (an admin role)"),
      budget: { description: "the store's credit budget", flags: [], subcommands: { set: leaf('cap what the service may charge per period', ['--per=']), show: leaf("the cap and this period's spend by analyst and by case") } },
    },
  },
  doctor: leaf('check what geo needs: Node, folders, config, key, service, optional parts', ['--online', '--auth']),
  completion: leaf('print a shell completion script', [], ['bash', 'zsh', 'fish']),
  version: leaf('print the version'),
};

/** The nouns whose --format values differ from FLAG_VALUES['--format'], with theirs. */
export function formatsOf(): Array<[string, readonly string[]]> {
  return Object.entries(COMMANDS).flatMap(([noun, c]) => (c.formats ? [[noun, c.formats] as [string, readonly string[]]] : []));
}

export const CONFIG_KEYS = ['depth', 'format', 'confirm_threshold', 'accessible', 'tsa', 'store'];

/** Long flag names without the "=" marker. */
export const bare = (flags: string[]) => flags.map((f) => f.replace(/=$/, ''));
export const takesValue = (flags: string[]) => flags.filter((f) => f.endsWith('=')).map((f) => f.slice(0, -1));

/** Short flags that take a value (skipped with their value when finding the noun). */
export const SHORT_VALUE_FLAGS = ['-d', '-e', '-S', '-X', '-f', '-F', '-H'];

/** Every flag that takes a value, anywhere: the scripts skip the word after it. */
export function allValueFlags(): string[] {
  const out = new Set(takesValue(GLOBAL_FLAGS));
  const walk = (c: CmdSpec) => {
    for (const f of takesValue(c.flags)) out.add(f);
    for (const s of Object.values(c.subcommands ?? {})) walk(s);
  };
  for (const c of Object.values(COMMANDS)) walk(c);
  return [...out, ...SHORT_VALUE_FLAGS];
}

/** The case label of a subcommand in the shell scripts: its name and its aliases. */
export const caseLabel = (name: string, c: CmdSpec) => [name, ...(c.aliases ?? [])].join('|');
