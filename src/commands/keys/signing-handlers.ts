/** Glue between commander and the `geo keys signing` run functions (signing.ts): arguments in, rendered data out. */
import type { Handler } from '../types.js';
import type { Ctx } from '../../context.js';
import { type ViewOpts, render, resolveFormat } from '../../output/render.js';
import { stderrText, width, wrapFor } from '../../output/fit.js';
import { commandLines } from '../../output/help/render.js';
import { renderKv } from '../../output/kv.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { renderTable } from '../../output/table.js';
import { CUSTODY_NAMESPACE } from '../../evidence/sshsig.js';
import { type SigningKeyView, runSigningCreate, runSigningList, runSigningShow, runSigningTest, runSigningUse } from './signing.js';

/** Confirmations are messages, not data: stderr, and silent under --quiet. */
function note(ctx: Ctx, line: string): void {
  if (!ctx.globals.quiet) ctx.io.stderr.write(stderrText(ctx.io, line) + '\n');
}

const SOURCE: Record<SigningKeyView['source'], string> = { keyring: 'made by geo, private key in the OS keyring', file: 'made by geo, private key in the 0600 file below', path: 'your key file', agent: 'held by ssh-agent' };
const signsIn = (v: { signsIn: string }) => (v.signsIn === 'geo' ? 'geo (this process)' : 'ssh-agent (geo never sees the private key)');

/**
 * Key files and agent comments are the analyst's text, not geo's: escaped before a terminal. On a
 * terminal every line fits its width with each token whole (a path, the key, the command): the key
 * value wraps (fit.ts), the allowed_signers line is said to be one line and how to get it unwrapped,
 * and the check command continues after ` \` so it still pastes as one. Piped, each is one line.
 */
function human(v: SigningKeyView, view: ViewOpts): string {
  // The file on a row of its own, nothing glued to it: a path that fits the screen stays whole.
  const rows = renderKv([
    ['key', `${v.ref} (${SOURCE[v.source]})`],
    ...(v.source === 'file' && v.path ? [['file', v.path] as [string, string]] : []),
    ['fingerprint', v.fingerprint],
    ['public key', v.publicKey],
    ['principal', v.principal],
    ['signs in', signsIn(v)],
    ['default', v.active ? 'yes: it signs unless another key is named' : `no (geo keys signing use ${v.ref})`],
  ], view);
  const check = `ssh-keygen -Y verify -f allowed_signers -I ${v.principal} -n ${CUSTODY_NAMESPACE} -s head.sig < head`;
  const signers = wrapFor(view, v.allowedSigners);
  const fits = !view.tty || width(`Check a signature: ${check}`) <= view.columns;
  return [
    rows,
    '',
    'For an allowed_signers file (who may sign, with which key):',
    ...(signers.length > 1 ? [...wrapFor(view, `one line, wrapped here to fit: \`geo keys signing show${v.active ? '' : ` ${sanitizeInline(v.ref)}`} --jq .allowedSigners\` prints it whole`), ...signers] : signers),
    ...(fits ? [`Check a signature: ${check}`] : ['Check a signature:', ...commandLines(check, '  ', '    ', view.columns)]),
  ].join('\n');
}

export const create: Handler = async (ctx, _args, opts) => {
  const r = await runSigningCreate(ctx, { name: opts.name as string | undefined, principal: opts.principal as string | undefined, insecureStorage: Boolean(opts.insecureStorage) });
  // Why the key is in the file is said once, even under --quiet and --json: it is about the key's safety.
  for (const line of r.notices) ctx.io.stderr.write(stderrText(ctx.io, line) + '\n');
  // The file last, nothing glued to it: a wrapped note keeps the path whole.
  note(ctx, `Created signing key "${r.name}" (${r.fingerprint})${r.active ? ', the default' : ''}; private key in ${r.source === 'keyring' ? 'the OS keyring' : `the 0600 file ${r.storedAt}`}`);
  await render(ctx, { data: r, human: (view) => human(r, view) });
};

export const show: Handler = async (ctx, args) => {
  const v = await runSigningShow(ctx, args[0] as string | undefined);
  await render(ctx, { data: v, human: (view) => human(v, view) });
};

export const use: Handler = async (ctx, args, opts) => {
  const v = await runSigningUse(ctx, String(args[0]), { principal: opts.principal as string | undefined });
  if (v.warning) ctx.io.stderr.write(stderrText(ctx.io, v.warning) + '\n');
  note(ctx, `Signing key: ${sanitizeInline(v.ref)} (${v.fingerprint}; signs in ${signsIn(v)}; principal ${v.principal})`);
  if (resolveFormat(ctx) === 'json') await render(ctx, { data: v, human: (view) => human(v, view) });
};

export const list: Handler = async (ctx) => {
  const rows = runSigningList(ctx);
  await render(ctx, {
    data: rows,
    records: () => rows,
    human: (view) =>
      rows.length === 0
        ? 'No signing key yet. Make one with: geo keys signing create (or use yours: geo keys signing use ~/.ssh/id_ed25519)'
        : renderTable({ head: ['', 'KEY', 'FINGERPRINT', 'KIND'], rows: rows.map((r) => [r.active ? '*' : '', sanitizeInline(r.ref), r.fingerprint, r.source]) }, view),
  });
};

export const test: Handler = async (ctx, args) => {
  const r = await runSigningTest(ctx, args[0] as string | undefined);
  await render(ctx, {
    data: r,
    human: () => [`ok: the key signs, and its signature verifies`, `key          ${sanitizeInline(r.ref)}`, `fingerprint  ${r.fingerprint}`, `principal    ${r.principal}`, `signs in     ${signsIn(r)}`].join('\n'),
  });
};
