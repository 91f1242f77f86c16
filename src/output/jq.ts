/**
 * `--jq EXPR` without a jq binary (analysts on Windows rarely have one): jq itself,
 * compiled to WebAssembly, from the npm package jq-wasm (jq 1.7, the wasm inlined in its one
 * JavaScript file, 1.4 MB installed, nothing downloaded). It is loaded only when --jq is given, so
 * no other run pays for it (~35 ms to instantiate).
 *
 * Bounded: `def f: f; f` loops inside the wasm and never yields, so on the main thread
 * it held the process past Ctrl-C. jq runs in a worker thread instead: each run has a time bound
 * (--jq-timeout, default 5 s) after which the worker is terminated (V8 stops wasm mid-loop), and
 * Ctrl-C terminates it at once (exit 130). Memory: the worker's JavaScript heap is capped by
 * resourceLimits (JQ_HEAP_MB), and jq-wasm's own build caps its wasm heap at 256 MB (it aborts
 * past that), so one expression costs at most about half a gigabyte.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { UsageError } from '../errors.js';
import { JQ_DEFAULT_TIMEOUT_S, JQ_HEAP_MB } from './jq-limits.js';
import { sanitizeInline } from './sanitize.js';


/** The worker: jq-wasm loaded once, one message per run (CommonJS, evaluated as a string: no file of its own in dist/). */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const jq = require(workerData.jq);
parentPort.on('message', (m) => {
  jq.raw(m.json, m.expr, m.flags).then(
    (out) => parentPort.postMessage({ ok: true, out }),
    (err) => parentPort.postMessage({ ok: false, message: String((err && err.message) || err) }),
  );
});`;

type Reply = { ok: true; out: string } | { ok: false; message: string };

/** jq's own message, on one line: "jq: error: syntax error, … at <top-level>, line 1: .a | (1 compile error)". */
function jqMessage(text: string): string {
  return sanitizeInline(text.replace(/^Failed to execute raw query: /, '').split('\n').map((l) => l.trim()).filter(Boolean).join(' '));
}

export interface JqOptions {
  timeoutMs: number;
  /** Ctrl-C: the run ends at once with this signal's reason. */
  signal?: AbortSignal;
}

/** One worker for a command's runs of one expression (a batch's NDJSON lines reuse it). */
export class Jq {
  private worker?: Worker;

  constructor(readonly expr: string, private readonly o: JqOptions) {}

  /** A bad expression is refused before the command runs (nothing sent, exit 2), with jq's message. */
  async check(): Promise<void> {
    const r = await this.exec('null', ['-r'], 'on null, before the command ran');
    // Only compile errors: an expression may well fail on null and work on the real output.
    if (!r.ok && /compile error/.test(r.message)) throw new UsageError(`--jq: ${jqMessage(r.message)}`, 'jq syntax: https://jqlang.org/manual/ (geo help formatting)');
  }

  /**
   * The results on one JSON document, as `jq -r` prints them: strings raw, other values as JSON,
   * pretty on a terminal and one line each into a pipe (gh's --jq). A runtime error (`.a[0]` on a
   * number) is a usage error with jq's message.
   */
  async run(json: string, pretty: boolean): Promise<string> {
    const r = await this.exec(json, pretty ? ['-r'] : ['-r', '-c'], 'on the output');
    if (!r.ok) throw new UsageError(`--jq: ${jqMessage(r.message)}`, 'the expression failed on this output; --json alone prints it whole');
    return r.out === '' ? '' : r.out.endsWith('\n') ? r.out : r.out + '\n';
  }

  /** Ends the worker (the process may then exit). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    await w?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const jq = createRequire(import.meta.url).resolve('jq-wasm');
    // stdout/stderr kept from the terminal: jq-wasm prints "Aborted()" when its heap runs out.
    const w = new Worker(WORKER, { eval: true, workerData: { jq }, stdout: true, stderr: true, resourceLimits: { maxOldGenerationSizeMb: JQ_HEAP_MB, maxYoungGenerationSizeMb: 32 } });
    w.stdout.resume();
    w.stderr.resume();
    w.unref();
    this.worker = w;
    return w;
  }

  private exec(json: string, flags: string[], where: string): Promise<Reply> {
    const signal = this.o.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const w = this.start();
    const seconds = Number((this.o.timeoutMs / 1000).toPrecision(3));
    return new Promise<Reply>((resolve, reject) => {
      const done = (end: () => void, kill: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        w.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (kill) void this.close();
        end();
      };
      const onMessage = (r: Reply) => {
        // jq-wasm's heap ran out: its instance is dead, so is this worker.
        if (!r.ok && /^Aborted\(/.test(r.message)) return done(() => reject(tooBig()), true);
        done(() => resolve(r), false);
      };
      const onError = (err: Error & { code?: string }) => done(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooBig() : err), true);
      const onExit = () => done(() => reject(new Error('--jq: jq stopped unexpectedly')), true);
      const onAbort = () => done(() => reject(signal!.reason), true);
      const timer = setTimeout(() => done(() => reject(new UsageError(`--jq: the expression ran longer than ${seconds} s ${where}, so geo stopped it`, `raise --jq-timeout SECONDS if it needs longer (default ${JQ_DEFAULT_TIMEOUT_S}); an expression that calls itself without end never finishes`)), true), this.o.timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      w.on('message', onMessage).on('error', onError).on('exit', onExit);
      w.postMessage({ json, expr: this.expr, flags });
    });
  }
}

function tooBig(): UsageError {
  return new UsageError(`--jq: the expression needed more memory than geo gives jq (256 MB inside jq, ${JQ_HEAP_MB} MB for its results)`, 'select less (.field, first(...), limit(n; ...)) before building large values');
}
