/**
 * Child process of kill9.test.ts (run with `node --import tsx`): one runBatch against a sandbox in
 * the parent process, printing one NDJSON line per finished input, until the parent SIGKILLs it.
 * argv[2] is JSON: { baseUrl, key, cwd, journal, data, depth }.
 */
import { ApiClient } from '../../src/api/client.js';
import { runBatch } from '../../src/batch/run.js';
import { testStore } from './helpers.js';

const a = JSON.parse(process.argv[2]!) as { baseUrl: string; key: string; cwd: string; journal: string; data: string; depth: 1 | 2 | 3 };
const client = new ApiClient({ baseUrl: a.baseUrl, apiKey: a.key, timeoutMs: 10_000, retry: { baseMs: 20, capMs: 200 } });
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
await runBatch(
  {
    client, env: {}, now: Date.now, sleep, cwd: a.cwd, store: testStore(a.data), version: '0.0.0-test',
    onEvent: (e) => {
      if (e.type === 'finished') process.stdout.write(JSON.stringify(e.record) + '\n');
    },
  },
  // The test consents, as --yes does: the plan (24 images at depth 2) is above the confirm threshold.
  { inputs: ['.'], depth: a.depth, journal: a.journal, yes: true },
);
process.stdout.write('{"done":true}\n');
