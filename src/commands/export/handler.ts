/** Glue for `geo export`: pick the format, select records, write the file (or stdout), streaming. */
import { createHash } from 'node:crypto';
import { streamingHeap } from '../../api/v8-tuning.js';
import { resolve } from 'node:path';
import { caseLog } from '../../batch/case-custody.js';
import { caseSigner } from '../../batch/case-sign.js';
import { findCase } from '../../store/find.js';
import { lstatSync } from 'node:fs';
import type { Handler } from '../types.js';
import { UsageError } from '../../errors.js';
import { writeOwnFile } from '../../files/own-file.js';
import { checkWritableFile } from '../../files/safe.js';
import { fileMode } from '../../flags.js';
import type { ProvenanceRecord } from '../../evidence/records.js';
import { BINARY_FORMATS } from '../../output/export/index.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { writeAll } from '../../output/write-all.js';
import { caseRecords, chooseFormat, renderRecords, selectRecords } from './run.js';

/** The files a record was made from: a report or a KMZ reads them again. */
const filesOf = (r: ProvenanceRecord) => [r.input.path, ...(r.video ? [r.video.path] : [])];

export const exportResults: Handler = async (ctx, args, opts) => {
  const out = opts.out as string | undefined;
  const format = chooseFormat(ctx.globals.format, out);
  const toStdout = !out || out === '-';
  const mode = fileMode(opts.fileMode);
  // Checked before any record is read: a zip on a terminal is noise, and can upset it.
  if (toStdout && BINARY_FORMATS.includes(format) && ctx.io.stdoutIsTTY) throw new UsageError(`${format} is a binary format: not written to a terminal`, `use --out results.${format}, or redirect: > results.${format}`);
  // An HTML report is a page for a browser: on a terminal it is a screenful of markup.
  if (toStdout && format === 'html' && ctx.io.stdoutIsTTY) throw new UsageError('html is a report for a browser: not written to a terminal', 'use --out report.html, or redirect: > report.html');
  const warn = (line: string) => {
    if (!ctx.globals.quiet) ctx.io.stderr.write(sanitizeInline(line) + '\n');
  };
  // --case: the case is found before anything is read or written (an unknown one is exit 2).
  const kase = opts.case !== undefined ? await findCase(await ctx.storeApi(), String(opts.case)) : undefined;
  const sources = (args[0] as string[] | undefined) ?? [];
  // --out is refused before anything is read: a link, a FIFO, a second name, a folder, a results
  // file it reads, or (with --case) a photo of the case (files/safe.ts).
  const linkedFiles = kase ? (await (await ctx.storeApi()).cases.linked(kase.id)).flatMap((l) => filesOf(l.stored.record)) : [];
  const caseFiles = () => linkedFiles;
  if (!toStdout) checkWritableFile(out, 'the export', { inputs: () => [...sources, ...caseFiles()] });
  // Over a file already there: no record may name it (a report or KMZ reads each record's photo).
  const over = !toStdout && lstatSync(out, { throwIfNoEntry: false }) !== undefined;
  // --all streams the whole store through: V8's young generation stops growing (api/v8-tuning.ts
  // streamingHeap), or its garbage sets the peak (bench/store.mjs: at 1,000,000 results, 149-173 MB
  // without, 124 MB with).
  if (opts.all) streamingHeap();
  const sel = { sources, all: Boolean(opts.all), history: Boolean(opts.history), includeSandbox: Boolean(opts.includeSandbox) };
  // A case's map files draw its investigation too (the conclusion's circle, places ruled out, the notes' points).
  const ofCase = kase ? await caseRecords(await ctx.storeApi(), { ...sel, caseRef: kase.id }) : undefined;
  const selected = ofCase ? ofCase.records : await selectRecords(ctx, sel, warn);
  let count = 0;
  const counted = (async function* () {
    for await (const r of selected) {
      if (over) checkWritableFile(out, 'the export', { inputs: () => filesOf(r) });
      count++;
      yield r;
    }
  })();
  const output = await renderRecords(ctx, format, counted, warn, ofCase ? { kase: ofCase.kase } : {});
  // What was written, hashed as it goes out: the case's custody log says which file it made.
  const hash = createHash('sha256');
  let size = 0;
  const hashed = (async function* () {
    for await (const chunk of typeof output === 'string' || Buffer.isBuffer(output) ? [output] : output) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      hash.update(bytes);
      size += bytes.length;
      yield bytes;
    }
  })();
  if (toStdout) await writeAll(ctx.io.stdout, hashed);
  else {
    // Through the one writer (files/own-file.ts): a temporary file renamed onto --out, 0600 unless --file-mode 644.
    await writeOwnFile(out, 'the export', hashed, { inputs: () => sources, ...(mode ? { mode } : {}) });
    warn(`wrote ${count} result${count === 1 ? '' : 's'} to ${out} (${format})`);
  }
  if (kase) {
    const path = out && out !== '-' ? resolve(out) : '-';
    const signer = await caseSigner(ctx, (line) => ctx.io.stderr.write(`${sanitizeInline(line)}\n`));
    await caseLog(await ctx.storeApi(), await signer.actor(), ctx.now).append(kase.id, { event: 'file_written', data: { file: { kind: format === 'html' ? 'report' : 'export', format, path, sha256: hash.digest('hex'), size } } });
    await signer.auto(kase.id);
  }
};
