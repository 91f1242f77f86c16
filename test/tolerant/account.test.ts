/**
 * The same tolerance for the GET answers (credits, usage, analyses, cases list) and for
 * `cases create`: what can be shown is shown, one warning per deviation naming the field, a body
 * that parsed is never re-requested; an error body in a 2xx is that error; and after a
 * `cases create` that may have reached the server, the hint never advises a rerun.
 */
import { describe, expect, it } from 'vitest';
import { type Answer, type FakeApi, type RouteKey, bom, gzip, ok, withFakeApi } from './fake-server.js';
import { errorLine, geo, warnings } from './helpers.js';

let api: FakeApi;
withFakeApi((a) => (api = a));

const CREDITS = { success: true, data: { balance: 500, api_balance: 400, total_available: 900, total_purchased: null, total_used: 3 } };
const CASE = { id: 'case_1', name: 'Harbour fire', description: 'Port footage', createdAt: '2026-01-01', updatedAt: '2026-01-02' };

interface AccountCase {
  name: string;
  route: RouteKey;
  argv: string[];
  answer: Answer;
  text?: string;
  exit: number;
  warn: RegExp[];
  /** Checked on a second, table (piped) run. */
  table?: RegExp;
}

const CREATE = ['cases', 'create', '--name', 'Harbour fire', '--no-input'];
/** What `geo cases list --json` prints for this service body when nothing is recorded locally. */
const listed = (body: { success: boolean; data?: object[] }) => JSON.stringify({ ...body, data: (body.data ?? []).map((c) => ({ ...c, where: 'service', local_id: null, results: null })) }, null, 2);

const CASES: AccountCase[] = [
  { name: 'credits: balance as a string', route: 'credits', argv: ['credits'], answer: ok({ ...CREDITS, data: { ...CREDITS.data, balance: '500' } }), exit: 0, warn: [/data\.balance: .*got "500"/], table: /balance\s+"500"/ },
  { name: 'credits: data missing', route: 'credits', argv: ['credits'], answer: ok({ success: true }), exit: 0, warn: [/data: missing/], table: /No credit figures/ },
  { name: 'credits: total_used missing, extra fields', route: 'credits', argv: ['credits'], answer: ok({ ...CREDITS, data: { ...CREDITS.data, total_used: undefined, plan: 'pro' } }), exit: 0, warn: [/data\.total_used: missing/], table: /used\s+missing/ },
  { name: 'credits: a BOM, gzip-compressed', route: 'credits', argv: ['credits'], answer: gzip(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(CREDITS))])), text: JSON.stringify(CREDITS), exit: 0, warn: [/byte order mark/], table: /total available\s+900/ },
  { name: 'credits: 201', route: 'credits', argv: ['credits'], answer: ok(CREDITS, 201), exit: 0, warn: [/status: 201/] },
  { name: 'usage: data an array', route: 'usage', argv: ['usage'], answer: ok({ success: true, data: [{ meter: 'ok' }] }), exit: 0, warn: [/data: /], table: /meter\s+ok/ },
  { name: 'usage: success missing, a BOM', route: 'usage', argv: ['usage'], answer: bom({ data: { meter: 'ok' } }), text: JSON.stringify({ data: { meter: 'ok' } }), exit: 0, warn: [/success: missing/, /byte order mark/] },
  { name: 'analyses: data an object', route: 'analyses', argv: ['analyses'], answer: ok({ success: true, data: { id: 'an_1' } }), exit: 0, warn: [/data: /], table: /No analyses found/ },
  { name: 'analyses: a null item among items', route: 'analyses', argv: ['analyses'], answer: ok({ success: true, data: [{ analysis_id: 'an_1', city: 'Paris' }, null] }), exit: 0, warn: [/data\.1: /], table: /an_1.*Paris/ },
  // cases list --json: the body as received, each case as received with where it is (issue 24), the local ones (none here) after them.
  { name: 'cases list: id a number, createdAt missing', route: 'cases list', argv: ['cases', 'list'], answer: ok({ success: true, data: [{ ...CASE, id: 7, createdAt: undefined }] }), text: listed({ success: true, data: [{ ...CASE, id: 7, createdAt: undefined }] }), exit: 0, warn: [/data\.0\.id: .*got 7/, /data\.0\.createdAt: missing/], table: /Harbour fire/ },
  { name: 'cases list: data missing', route: 'cases list', argv: ['cases', 'list'], answer: ok({ success: true }), text: listed({ success: true }), exit: 0, warn: [/data: missing/], table: /No cases yet/ },
  { name: 'cases create: 201 (the spec says 200, not 201)', route: 'cases create', argv: CREATE, answer: ok(CASE, 201), exit: 0, warn: [/status: 201/], table: /case_1/ },
  { name: 'cases create: wrapped in {success, data}', route: 'cases create', argv: CREATE, answer: ok({ success: true, data: CASE }), exit: 0, warn: [/wrapped in \{success, data\}/], table: /id\s+case_1/ },
  { name: 'cases create: wrapped, 201, updatedAt missing', route: 'cases create', argv: CREATE, answer: ok({ success: true, data: { ...CASE, updatedAt: undefined } }, 201), exit: 0, warn: [/status: 201/, /wrapped/, /updatedAt: missing/] },
  { name: 'cases create: description null', route: 'cases create', argv: CREATE, answer: ok({ ...CASE, description: null }), exit: 0, warn: [/description: .*got null/], table: /name\s+Harbour fire/ },
  { name: 'credits: a 200 error body (unauthorized) is that error', route: 'credits', argv: ['credits'], answer: ok({ success: false, code: 'unauthorized', message: 'no' }), exit: 3, warn: [] },
  { name: 'cases create: a 200 error body (payment_required) is that error', route: 'cases create', argv: CREATE, answer: ok({ success: false, code: 'payment_required', message: 'plan lacks cases' }), exit: 4, warn: [] },
];

describe(`${CASES.length} deviating account, history and cases answers`, () => {
  it.each(CASES)('$name', async (c) => {
    api.answers[c.route] = c.answer;
    const text = c.text ?? (typeof c.answer.body === 'string' ? c.answer.body : c.answer.body.toString('utf8'));
    const r = await geo(api, [...c.argv, '--json']);
    expect(r.code, r.stderr).toBe(c.exit);
    expect(api.count(c.route)).toBe(1); // never re-requested
    if (c.exit === 0) expect(r.stdout).toBe(text + '\n');
    else expect(r.stdout).toBe('');
    const warned = warnings(r.stderr);
    if (c.warn.length === 0) expect(warned).toEqual([]);
    for (const w of c.warn) expect(warned.some((l) => w.test(l)), `${w} in\n${r.stderr}`).toBe(true);
    if (c.table) {
      const t = await geo(api, c.argv);
      expect(t.code).toBe(c.exit);
      expect(t.stdout).toMatch(c.table);
    }
  });
});

describe('cases create that may have reached the server: never advise a rerun', () => {
  it.each([
    { name: 'an unreadable 200', answer: ok('<html>created?</html>'), argv: [] as string[] },
    { name: 'a 500', answer: ok({ success: false, code: 'server_error', message: 'boom' }, 500), argv: [] },
    { name: 'no answer in time', answer: { status: 200, body: '', hang: true }, argv: ['--timeout', '0.3'] },
  ])('$name: exit 6, one request, "the case may exist: check `geo cases list`"', async (c) => {
    api.answers['cases create'] = c.answer;
    const r = await geo(api, [...CREATE, ...c.argv]);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stdout).toBe('');
    expect(api.count('cases create')).toBe(1);
    const line = errorLine(r.stderr)!;
    expect(line).toMatch(/ — hint: the case may exist: check `geo cases list`/);
    expect(line).not.toMatch(/rerun|retry/i);
  });
});
