/**
 * `--jq EXPR` without a jq binary (issue 22; analysts on Windows rarely have one): jq itself,
 * compiled to WebAssembly, from the npm package jq-wasm (jq 1.7, the wasm inlined in its one
 * JavaScript file, 1.4 MB installed, nothing downloaded). It is loaded only when --jq is given, so
 * no other run pays for it (~35 ms to instantiate).
 */
import { UsageError } from '../errors.js';
import { sanitizeInline } from './sanitize.js';

interface JqWasm {
  raw(data: string, filter: string, flags?: string[]): Promise<string>;
}

let loaded: Promise<JqWasm> | undefined;

function jq(): Promise<JqWasm> {
  loaded ??= import('jq-wasm').then((m) => ((m as { raw?: unknown }).raw ? m : (m as { default: JqWasm }).default) as JqWasm);
  return loaded;
}

/** jq's own message, on one line: "jq: error: syntax error, … at <top-level>, line 1: .a | (1 compile error)". */
function jqMessage(err: unknown): string {
  const text = (err instanceof Error ? err.message : String(err)).replace(/^Failed to execute raw query: /, '');
  return sanitizeInline(text.split('\n').map((l) => l.trim()).filter(Boolean).join(' '));
}

/** A bad expression is refused before the command runs (nothing sent, exit 2), with jq's message. */
export async function checkJq(expr: string): Promise<void> {
  try {
    await (await jq()).raw('null', expr, ['-r']);
  } catch (err) {
    const message = jqMessage(err);
    // Only compile errors: an expression may well fail on null and work on the real output.
    if (/compile error/.test(message)) throw new UsageError(`--jq: ${message}`, 'jq syntax: https://jqlang.org/manual/ (geo help formatting)');
  }
}

/**
 * The results of `expr` on one JSON document, as `jq -r` prints them: strings raw, other values
 * as JSON, pretty on a terminal and one line each into a pipe (gh's --jq). A runtime error (`.a[0]`
 * on a number) is a usage error with jq's message.
 */
export async function runJq(json: string, expr: string, pretty: boolean): Promise<string> {
  try {
    const out = await (await jq()).raw(json, expr, pretty ? ['-r'] : ['-r', '-c']);
    return out === '' ? '' : out.endsWith('\n') ? out : out + '\n';
  } catch (err) {
    throw new UsageError(`--jq: ${jqMessage(err)}`, 'the expression failed on this output; --json alone prints it whole');
  }
}
