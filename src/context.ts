/**
 * Ctx: everything a command may touch (DESIGN.md "Layers"). Only cli.ts builds one from process.*;
 * tests build one with fake streams, TTY flags, clock, env and config folder.
 */
import { ApiClient, normalizeBaseUrl } from './api/client.js';
import { accountFingerprint } from './api/secret.js';
import { join } from 'node:path';
import { configDir, dataDir, stateDir } from './config/paths.js';
import type { Vault } from './config/key-storage.js';
import { type Resolved, maskKey, resolveCredentials } from './config/resolve.js';
import { ConfigStore } from './config/profiles.js';
import { MissingKeyError } from './errors.js';
import type { ChildHost } from './media/run-tool.js';
import { type Env, type IO, canAnimate, canPrompt, isAccessible } from './output/io.js';
import { stderrText } from './output/fit.js';
import { createPrompter } from './output/prompt.js';
import type { Prompter } from './output/prompter.js';
import { redact, sanitizeInline } from './output/sanitize.js';
import { SAY_END_AFTER_MS, waitEnds } from './output/wait-line.js';
import { type ProcessProbe, Store, type StoreApi, asStoreApi, openStore } from './store/index.js';
import { argvPasswordWarning, chooseStore, withKeyringPassword } from './config/store-url.js';

export interface GlobalOptions {
  json?: boolean;
  /** --json f1,f2: only these fields (the stdout filter selects them; output/json-filter.ts). */
  jsonFields?: string[];
  /** --jq EXPR (applied by the same filter). */
  jq?: string;
  format?: string;
  profile?: string;
  baseUrl?: string;
  color?: boolean;
  quiet?: boolean;
  debug?: boolean;
  timeout?: number;
  input?: boolean;
  yes?: boolean;
  sandbox?: boolean;
  /** --store URL|local: the store for this run (config/store-url.ts chooseStore). */
  store?: string;
}

export interface Runtime {
  io: IO;
  env: Env;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal: AbortSignal;
  version: string;
  /** This process as the store's claims see it (pid, start time, is another pid alive). */
  probe: ProcessProbe;
  /** Killing a tool's process group (ffmpeg, ffprobe), and whether a pid runs (media/run-tool.ts; cli.ts builds it). */
  children?: ChildHost;
  /**
   * Aborted when stdout (or stderr) is closed under a command that asked to finish its work first
   * (keepRunningOnClosedOutput): a batch stops sending and stores what is in flight.
   */
  outputClosed: AbortSignal;
  /** While the returned release is not called, a closed output aborts outputClosed instead of exiting at once. */
  keepRunningOnClosedOutput(): () => void;
  /** The Node running geo (process.execPath): the keyring helper runs under it (config/keyring.ts). */
  execPath: string;
  /** The Node version running geo (process.versions.node), for geo doctor. */
  node?: string;
  /** A batch of many inputs between two phases: keep the V8 heap small and collect it now (batch/prepare.ts LARGE_BATCH; api/v8-tuning.ts). */
  frugalMemory?: () => void;
}

export interface Ctx extends Runtime {
  globals: GlobalOptions;
  config: ConfigStore;
  /** Key, base URL and profile after precedence and the key-to-service binding (memoised). */
  resolved(): Resolved;
  /** The resolved key itself, read from the OS keyring when it is kept there (memoised); undefined without one. */
  key(): Promise<string | undefined>;
  /** The API client for the resolved key and base URL (memoised); it reads a keyring key on its first request. */
  client(): ApiClient;
  /**
   * The account fingerprint of the resolved key on the resolved service (accountFingerprint):
   * what journals and provenance records carry instead of the key. undefined without a key.
   */
  account(): Promise<string | undefined>;
  /**
   * The service as claims and stored results know it: the normalized base URL, or one name for
   * every `--sandbox` run (each starts on a new port; answers stored by one are reused by the next).
   */
  serviceId(): string;
  /**
   * This machine's own SQLite file (src/store/), opened on first use and closed when the command
   * ends, whatever store the run uses: what `geo store push` copies in and `geo doctor` checks.
   * Every command reads and writes through storeApi(), never this.
   */
  localStore(): Store;
  /**
   * The store this run uses through the asynchronous interface: a team's PostgreSQL by
   * --store URL, GEO_STORE_URL or `geo config set store`, else the local file (memoised, closed
   * when the command ends). `--store local` uses the local file for this run and says so on stderr.
   */
  storeApi(): Promise<StoreApi>;
  /** The keys this run has read so far: masked out of everything it prints (output/sanitize.ts redact()). */
  secrets(): readonly string[];
  /** Where keys are kept: the keyring helper's Node, the environment and the config folder. */
  vault: Vault;
  prompt: Prompter;
  /** May we ask questions? (TTY, not CI, not --no-input) */
  interactive: boolean;
  /** May we draw spinners and live lines on stderr? (never in accessible mode) */
  animate: boolean;
  /** Accessible mode: plain progress lines instead of redrawn ones, prompts that do not redraw. */
  accessible: boolean;
  /** --debug / GEO_DEBUG: a line on stderr, secrets redacted. */
  debug(line: string): void;
  /** Runs when the command ends (stops an in-process sandbox, for example). */
  onCleanup(fn: () => Promise<void> | void): void;
  cleanup(): Promise<void>;
}

/** The one line a --sandbox run prints first (locate's own sandbox banner then stays silent). */
export const FRESH_SANDBOX_LINE = 'sandbox: simulated, no real money; a fresh one for this command alone';

/** `offline`: the command sends nothing to the service, so --sandbox starts no sandbox for it (commands/types.ts ActOptions). */
export async function createContext(rt: Runtime, globals: GlobalOptions, opts: { offline?: boolean } = {}): Promise<Ctx> {
  const config = new ConfigStore(configDir(rt.env));
  const vault: Vault = { env: rt.env, execPath: rt.execPath, configDir: config.dir };
  const cleanups: Array<() => Promise<void> | void> = [];
  const debugOn = Boolean(globals.debug) || (rt.env.GEO_DEBUG !== undefined && rt.env.GEO_DEBUG !== '' && rt.env.GEO_DEBUG !== '0');
  const secrets: string[] = [];
  const debug = (line: string) => {
    // Debug lines quote response headers (x-request-id, ratelimit), which may carry raw C1 bytes.
    if (debugOn) rt.io.stderr.write(`[debug] ${sanitizeInline(redact(line, secrets))}\n`);
  };

  // Once per run, even with --quiet: a secret other users can read is not chatter.
  const inArgv = argvPasswordWarning(globals.store);
  if (inArgv) rt.io.stderr.write(`${stderrText(rt.io, inArgv)}\n`);

  let override: Resolved | undefined;
  // An offline command under --sandbox: no sandbox, no banner; its credentials are never the user's.
  const noService = Boolean(globals.sandbox && opts.offline);
  if (globals.sandbox && !opts.offline) {
    // --sandbox: an in-process sandbox on a free loopback port, used with its pro key.
    const { startSandbox } = await import('./sandbox/server.js');
    const sb = await startSandbox({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => sb.close());
    // Said once per run: a new user expected the sandbox's credits, analyses and cases to
    // last from one command to the next. stderr only, so --json's stdout stays one document.
    if (!globals.quiet) rt.io.stderr.write(`${stderrText(rt.io, FRESH_SANDBOX_LINE)}\n`);
    override = { key: { value: 'orca_sandbox_pro', masked: maskKey('orca_sandbox_pro'), source: 'sandbox', storage: 'sandbox' }, baseUrl: { value: sb.url, source: 'sandbox' } };
  }

  let resolved: Resolved | undefined;
  let key: Promise<string | undefined> | undefined;
  let client: ApiClient | undefined;
  let store: Store | undefined;
  let storeApi: Promise<StoreApi> | undefined;
  // Only a terminal is drawn on or asks: elsewhere the config file is not even read for it.
  const onTerminal = rt.io.stderrIsTTY || rt.io.stdinIsTTY;
  const accessible = onTerminal && isAccessible(rt.env, rt.env.GEO_ACCESSIBLE ? undefined : config.peekDefault('accessible'));
  const ctx: Ctx = {
    ...rt,
    globals,
    config,
    vault,
    prompt: createPrompter(rt.io, rt.signal, accessible),
    interactive: canPrompt(rt.io, rt.env, globals.input === false),
    animate: !accessible && canAnimate(rt.io, rt.env, Boolean(globals.quiet)),
    accessible,
    debug,
    resolved() {
      if (noService) throw new Error('internal: a command declared offline asked for the service under --sandbox');
      if (resolved) return resolved;
      resolved = override ?? resolveCredentials({ profile: globals.profile, baseUrl: globals.baseUrl }, rt.env, config);
      if (resolved.key?.value) secrets.push(resolved.key.value);
      return resolved;
    },
    key() {
      key ??= (async () => {
        const k = ctx.resolved().key;
        if (!k) return undefined;
        if (k.value !== undefined) return k.value;
        // Loaded only now: a command that sends nothing never starts the keyring helper.
        const { readKeyringKey } = await import('./config/key-storage.js');
        const value = await readKeyringKey(vault, k.profile!);
        secrets.push(value);
        return value;
      })();
      return key;
    },
    client() {
      if (client) return client;
      const r = ctx.resolved();
      if (!r.key) throw new MissingKeyError();
      client = new ApiClient({
        baseUrl: r.baseUrl.value,
        apiKey: r.key.value ?? (async () => (await ctx.key())!),
        timeoutMs: (globals.timeout ?? 180) * 1000,
        userAgent: `geo-cli/${rt.version}`,
        sleep: rt.sleep,
        now: rt.now,
        signal: rt.signal,
        debug: debugOn ? debug : undefined,
        // Issue 21: a 429's wait (up to 5 minutes) is said on stderr, not sat through in silence;
        // so is any other wait over 5 s (a 5xx backoff), each with its reason and its end.
        onWait: (i) => {
          if (globals.quiet || (i.reason !== 'rate_limited' && i.delayMs <= SAY_END_AFTER_MS)) return;
          const what = i.reason === 'rate_limited' ? 'rate limited (429)' : i.status !== undefined ? `the service answered ${i.status}` : `connection problem (${i.reason})`;
          const now = rt.now();
          rt.io.stderr.write(`${what} on ${i.method} ${i.path}: waiting ${waitEnds(now + i.delayMs, now)}, then retrying\n`);
        },
      });
      return client;
    },
    async account() {
      const value = await ctx.key();
      if (value === undefined) return undefined;
      // --sandbox serves on a new port each run: its account is "the sandbox's pro key" whatever the
      // port, so a batch it ran can be resumed by the next --sandbox run.
      return accountFingerprint(ctx.serviceId(), value);
    },
    serviceId() {
      if (noService) return 'geo-sandbox:';
      const r = ctx.resolved();
      return r.baseUrl.source === 'sandbox' ? 'geo-sandbox:' : normalizeBaseUrl(r.baseUrl.value);
    },
    localStore() {
      if (store) return store;
      // The SQLite binding loads here, only for commands that use the store.
      const data = dataDir(rt.env);
      store = Store.open(data, {
        probe: rt.probe, now: rt.now,
        legacy: { resultsDir: join(data, 'results'), journalsDir: join(stateDir(rt.env), 'journals') },
        warn: (line) => {
          if (!globals.quiet) rt.io.stderr.write(`${sanitizeInline(line)}\n`);
        },
      });
      const opened = store;
      cleanups.unshift(() => opened.close());
      return store;
    },
    storeApi() {
      storeApi ??= (async () => {
        const choice = chooseStore(globals.store, rt.env, config);
        const o = { probe: rt.probe, now: rt.now, env: rt.env, warn: (line: string) => globals.quiet || rt.io.stderr.write(`${sanitizeInline(line)}\n`) };
        let api: StoreApi;
        if (choice.kind === 'team') {
          const url = choice.source === 'config' ? await withKeyringPassword(vault, choice.url) : choice.url;
          api = await openStore({ kind: 'team', url }, o);
        } else {
          // The same connection as ctx.localStore(): a run that also pushes or checks it holds one.
          api = asStoreApi(ctx.localStore(), rt.now);
          if (choice.source === 'flag' && !globals.quiet) rt.io.stderr.write(`using the local store ${sanitizeInline(api.where)} for this run (--store local)\n`);
        }
        cleanups.unshift(() => api.close());
        return api;
      })();
      return storeApi;
    },
    secrets: () => secrets,
    onCleanup(fn) {
      cleanups.push(fn);
    },
    async cleanup() {
      for (const fn of cleanups.splice(0).reverse()) await fn();
    },
  };
  return ctx;
}
