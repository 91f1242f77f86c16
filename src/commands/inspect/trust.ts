/**
 * `geo inspect --c2pa-trust FILE`: the certificates whose chains make a C2PA signer "trusted" (a
 * PEM file, e.g. the C2PA conformance trust list or a newsroom's own CA). geo ships none: without
 * it, a valid signature is reported with signingCredential.untrusted (image/c2pa.ts).
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import { checkReadableInput } from '../../files/safe.js';

const HINT = 'give a PEM file of CA certificates (-----BEGIN CERTIFICATE-----), e.g. the C2PA trust list';

export async function readTrustAnchors(file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return undefined;
  const shown = `--c2pa-trust ${file}`;
  let text: string;
  try {
    const st = statSync(file);
    if (st.isDirectory()) throw new UsageError(`${shown} is a folder`, HINT);
    checkReadableInput(file, shown, st);
    text = await readFile(file, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${shown}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})`, HINT);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`${shown}: no PEM certificate in it`, HINT);
  return text;
}
