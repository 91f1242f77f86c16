/**
 * Ctx: everything a command may touch (DESIGN.md "Layers"). Only cli.ts builds one from process.*;
 * tests build one with fake streams, TTY flags, clock, env and config folder.
 */
import { ApiClient, normalizeBaseUrl } from './api/client.js';
import { accountFingerprint } from './api/secret.js';
import { configDir } from './config/paths.js';
import { type Resolved, resolveCredentials } from './config/resolve.js';
import { ConfigStore } from './config/store.js';
import { MissingKeyError } from './errors.js';
import { type Env, type IO, canAnimate, canPrompt } from './output/io.js';
import { type Prompter, createPrompter } from './output/prompt.js';
import { redact, sanitizeInline } from './output/sanitize.js';

export interface GlobalOptions {
  json?: boolean;
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
}

export interface Runtime {
  io: IO;
  env: Env;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal: AbortSignal;
  version: string;
}

export interface Ctx extends Runtime {
  globals: GlobalOptions;
  config: ConfigStore;
  /** Key, base URL and profile after precedence (memoised). */
  resolved(): Resolved;
  /** The API client for the resolved key and base URL (memoised). */
  client(): ApiClient;
  /**
   * The account fingerprint of the resolved key on the resolved service (accountFingerprint):
   * what journals and provenance records carry instead of the key. undefined without a key.
   */
  account(): string | undefined;
  prompt: Prompter;
  /** May we ask questions? (TTY, not CI, not --no-input) */
  interactive: boolean;
  /** May we draw spinners and live lines on stderr? */
  animate: boolean;
  /** --debug / GEO_DEBUG: a line on stderr, secrets redacted. */
  debug(line: string): void;
  /** Runs when the command ends (stops an in-process sandbox, for example). */
  onCleanup(fn: () => Promise<void> | void): void;
  cleanup(): Promise<void>;
}

export async function createContext(rt: Runtime, globals: GlobalOptions): Promise<Ctx> {
  const config = new ConfigStore(configDir(rt.env));
  const cleanups: Array<() => Promise<void> | void> = [];
  const debugOn = Boolean(globals.debug) || (rt.env.GEO_DEBUG !== undefined && rt.env.GEO_DEBUG !== '' && rt.env.GEO_DEBUG !== '0');
  const secrets: string[] = [];
  const debug = (line: string) => {
    // Debug lines quote response headers (x-request-id, ratelimit), which may carry raw C1 bytes.
    if (debugOn) rt.io.stderr.write(`[debug] ${sanitizeInline(redact(line, secrets))}\n`);
  };

  let override: Resolved | undefined;
  if (globals.sandbox) {
    // --sandbox: an in-process sandbox on a free loopback port, used with its pro key.
    const { startSandbox } = await import('./sandbox/server.js');
    const sb = await startSandbox({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => sb.close());
    override = { key: { value: 'orca_sandbox_pro', source: 'sandbox' }, baseUrl: { value: sb.url, source: 'sandbox' } };
  }

  let resolved: Resolved | undefined;
  let client: ApiClient | undefined;
  const ctx: Ctx = {
    ...rt,
    globals,
    config,
    prompt: createPrompter(rt.io, rt.signal),
    interactive: canPrompt(rt.io, rt.env, globals.input === false),
    animate: canAnimate(rt.io, rt.env, Boolean(globals.quiet)),
    debug,
    resolved() {
      if (resolved) return resolved;
      resolved = override ?? resolveCredentials({ profile: globals.profile, baseUrl: globals.baseUrl }, rt.env, config);
      if (resolved.key) secrets.push(resolved.key.value);
      return resolved;
    },
    client() {
      if (client) return client;
      const r = ctx.resolved();
      if (!r.key) throw new MissingKeyError();
      client = new ApiClient({
        baseUrl: r.baseUrl.value,
        apiKey: r.key.value,
        timeoutMs: (globals.timeout ?? 180) * 1000,
        userAgent: `geo-cli/${rt.version}`,
        sleep: rt.sleep,
        now: rt.now,
        signal: rt.signal,
        debug: debugOn ? debug : undefined,
        // Issue 21: a 429's wait (up to a minute) is said on stderr with its length, not sat through in silence.
        onWait: (i) => {
          if (i.reason === 'rate_limited' && !globals.quiet) rt.io.stderr.write(`rate limited (429) on ${i.method} ${i.path}: waiting ${Math.max(1, Math.ceil(i.delayMs / 1000))} s, then retrying\n`);
        },
      });
      return client;
    },
    account() {
      const r = ctx.resolved();
      if (!r.key) return undefined;
      // --sandbox serves on a new port each run: its account is "the sandbox's pro key" whatever the
      // port, so a journal it wrote can be resumed by the next --sandbox run.
      const origin = r.baseUrl.source === 'sandbox' ? 'geo-sandbox:' : normalizeBaseUrl(r.baseUrl.value);
      return accountFingerprint(origin, r.key.value);
    },
    onCleanup(fn) {
      cleanups.push(fn);
    },
    async cleanup() {
      for (const fn of cleanups.splice(0).reverse()) await fn();
    },
  };
  return ctx;
}
