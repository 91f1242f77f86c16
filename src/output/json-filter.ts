/**
 * The one place `--json FIELDS` and `--jq EXPR` happen: cli/run-command.ts puts this filter in
 * front of stdout for the command's run, so every command that prints JSON (a document, or NDJSON
 * lines as a batch goes) gets both without code of its own. Each JSON document the command writes
 * is parsed as it completes (an NDJSON line at once, so a batch still streams), its fields
 * selected, then the jq expression run on it; what comes out goes to the real stdout.
 */
import { Writable } from 'node:stream';
import { UsageError } from '../errors.js';
import { type JsonFields, selectFields } from './json-fields.js';
import type { Jq } from './jq.js';
import { sanitize, sanitizeJsonText } from './sanitize.js';

export interface FilterOptions {
  fields?: readonly string[];
  /** --jq EXPR, its worker already started and the expression checked (jq.ts); closed with the filter. */
  jq?: Jq;
  declared: JsonFields;
  /** "geo analyses": named in errors. */
  what: string;
  /** stdout is a terminal: jq's results pretty and escaped (server strings never reach it raw). */
  tty: boolean;
}

export interface JsonFilter {
  stream: Writable;
  /** Flushes the last document; throws the first failure (a bad field, jq's error, no JSON). */
  close(): Promise<void>;
}

/** A pretty document ends with a line that closes it at the margin; an NDJSON line ends at once. */
const closes = (line: string) => line === '}' || line === ']';

export function openJsonFilter(out: Writable, o: FilterOptions): JsonFilter {
  let pending: string[] = [];
  let carry = '';
  let failure: unknown;

  const emit = async (text: string, oneLine: boolean) => {
    let doc: unknown = JSON.parse(text);
    let json = text;
    if (o.fields) {
      doc = selectFields(doc, o.fields, o.declared, o.what);
      json = JSON.stringify(doc, null, oneLine ? undefined : 2);
    }
    if (o.jq === undefined) return void out.write(sanitizeJsonText(json) + '\n');
    const result = await o.jq.run(json, o.tty);
    out.write(o.tty ? sanitize(result) : result);
  };

  /** One complete line of the command's output: a document may be complete now. */
  const line = async (l: string) => {
    if (pending.length === 0 && l.trim() === '') return;
    pending.push(l);
    if (pending.length > 1 && !closes(l)) return;
    const text = pending.join('\n');
    try {
      JSON.parse(text);
    } catch {
      return; // not complete yet (the first line of a pretty document)
    }
    const oneLine = pending.length === 1;
    pending = [];
    await emit(text, oneLine);
  };

  const stream = new Writable({
    decodeStrings: false,
    async write(chunk: string | Buffer, _enc, done) {
      if (failure) return done();
      try {
        const lines = (carry + chunk.toString()).split('\n');
        carry = lines.pop() ?? '';
        for (const l of lines) await line(l);
      } catch (err) {
        failure = err;
      }
      done();
    },
  });

  /** The last document, then the first failure (a bad field, jq's error, no JSON). */
  const finish = async () => {
    if (!failure) {
      try {
        if (carry !== '') await line(carry);
        if (pending.length) {
          const text = pending.join('\n');
          pending = [];
          await emit(text, false);
        }
      } catch (err) {
        failure = err instanceof SyntaxError ? new UsageError(`${o.what} printed something that is not JSON, so --json FIELDS and --jq cannot read it`, 'use --json alone') : err;
      }
    }
    if (failure) throw failure;
  };

  return {
    stream,
    async close() {
      await new Promise<void>((resolve) => stream.end(resolve));
      try {
        await finish();
      } finally {
        await o.jq?.close();
      }
    },
  };
}
