/**
 * A real sandbox for any test (DESIGN.md: every test talks to it over real HTTP). The rate limit is
 * high by default so suites are never throttled; pass `rateLimit` to test pacing.
 *
 *   const sb = withSandbox();                 // beforeAll/afterAll in this file
 *   it('...', async () => { sb.url; sb.ledger(); });
 *
 *   const sb = await startTestSandbox({ latencyMs: 200 }); ... await sb.close();
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { type Ledger, type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';

export type { Ledger, SandboxOptions } from '../../src/sandbox/server.js';

export interface TestSandbox {
  url: string;
  port: number;
  close(): Promise<void>;
  ledger(): Ledger;
}

/** The seeded keys (DESIGN.md "Sandbox surface"). */
export const KEYS = {
  free: 'orca_sandbox_free',
  starter: 'orca_sandbox_starter',
  pro: 'orca_sandbox_pro',
  enterprise: 'orca_sandbox_enterprise',
  nohistory: 'orca_sandbox_nohistory',
  exhausted: 'orca_sandbox_exhausted',
  broke: 'orca_sandbox_broke',
  d1cap: 'orca_sandbox_d1cap',
} as const;

export const TEST_RATE_LIMIT = 100_000;

export async function startTestSandbox(opts: SandboxOptions = {}): Promise<TestSandbox> {
  const sb: Sandbox = await startSandbox({ rateLimit: TEST_RATE_LIMIT, ...opts });
  return { url: sb.url, port: sb.port, close: () => sb.close(), ledger: () => sb.ledger() };
}

/** Starts one sandbox for the calling test file (beforeAll) and stops it (afterAll). */
export function withSandbox(opts: SandboxOptions = {}): TestSandbox {
  let sb: TestSandbox | undefined;
  const live = (): TestSandbox => {
    if (!sb) throw new Error('withSandbox(): the sandbox is only available inside tests and hooks');
    return sb;
  };
  beforeAll(async () => {
    sb = await startTestSandbox(opts);
  });
  afterAll(async () => {
    await sb?.close();
  });
  return {
    get url() {
      return live().url;
    },
    get port() {
      return live().port;
    },
    close: () => live().close(),
    ledger: () => live().ledger(),
  };
}

export const FIXTURES = new URL('../../fixtures/images/', import.meta.url).pathname;

/** A fixture image as raw base64 (fixtures/images/<name>). */
export function fixtureB64(name: string): string {
  return readFileSync(FIXTURES + name).toString('base64');
}
