/**
 * One analyst's geo process in the team-store race (team-race.test.ts): the claim path geo's
 * batch engine takes (batch/worker.ts), over the asynchronous store itself: acquire the request's
 * claim, reserve its credits in the team budget, send with the claim's key, commit the answer with
 * its claim, settle the reservation; wait for a request another process holds; resend a key a
 * dead process left open. Argv: STORE_URL SERVER_URL MACHINE.
 */
import { createHash } from 'node:crypto';
import { processProbe } from '../../src/cli.js';
import { buildRecord } from '../../src/evidence/records.js';
import { openStore } from '../../src/store/index.js';

const [url, server, machine] = process.argv.slice(2) as [string, string, string];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const store = await openStore({ kind: 'team', url }, { probe: processProbe(), now: Date.now });
const who = { user: 'analyst', host: machine };
const order = Array.from({ length: 12 }, (_, i) => i).sort(() => Math.random() - 0.5);

for (const i of order) {
  const fp = createHash('sha256').update(`race image ${i}`).digest('hex');
  for (;;) {
    const acq = await store.acquire(fp, { input: `img${i}.jpg` });
    if (acq.kind === 'answered' || acq.kind === 'failed') break;
    if (acq.kind === 'wait') {
      await sleep(100);
      continue;
    }
    const held = await store.budget.reserve(acq.key, 1, { ...who, caseId: 'lc_race' });
    if (!held.ok) {
      await store.release(acq.key);
      process.stdout.write(`budget ${i}\n`);
      break;
    }
    for (;;) {
      const res = await fetch(`${server}/api/v1/geolocate`, {
        method: 'POST', headers: { 'idempotency-key': acq.key, 'content-type': 'application/json' },
        body: JSON.stringify({ image_b64: Buffer.from(`race image ${i}`).toString('base64'), depth: 1 }),
      });
      const text = await res.text();
      // 409 in progress: the key is running for a process that died while sending it; its answer comes.
      if (res.status === 409) {
        await sleep(250);
        continue;
      }
      const replayed = res.headers.get('idempotent-replayed') === 'true';
      const record = buildRecord({
        input: { path: `img${i}.jpg`, sha256: createHash('sha256').update(`race image ${i}`).digest('hex') }, request: { image_b64: 'x', depth: 1 },
        response: { data: JSON.parse(text), raw: text, status: res.status, headers: {}, replayed, idempotencyKey: acq.key },
        baseUrl: server, cliVersion: 'race', now: Date.now(), account: 'team',
      });
      await store.answer(acq.key, { record, sandbox: false, listed: true }, replayed ? 0 : 1);
      // The key was charged once (by its first completed send, this one or a dead process's).
      await store.budget.settle(acq.key, 1);
      process.stdout.write(`sent ${i}\n`);
      break;
    }
    break;
  }
}
await store.close();
