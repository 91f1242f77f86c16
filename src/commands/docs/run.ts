/** The docs URL of the resolved base URL, and its HTML (GET /api/v1/docs needs no key). */
import { ApiClient } from '../../api/client.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type FileMode, writeOwnFile } from '../../files/own-file.js';
import { checkWritableFile } from '../../files/safe.js';
import { openUrl } from './open.js';

export interface DocsResult {
  url: string;
  opened?: string | false;
  saved?: { file: string; bytes: number };
}

export function docsUrl(ctx: Ctx): string {
  return ctx.resolved().baseUrl.value.replace(/\/+$/, '') + '/api/v1/docs';
}

/** The docs endpoint is public: no key is given to this client, so none is needed or sent. */
function docsClient(ctx: Ctx): ApiClient {
  return new ApiClient({
    baseUrl: ctx.resolved().baseUrl.value,
    apiKey: '',
    timeoutMs: (ctx.globals.timeout ?? 180) * 1000,
    userAgent: `geo-cli/${ctx.version}`,
    sleep: ctx.sleep,
    now: ctx.now,
    signal: ctx.signal,
    debug: (line: string) => ctx.debug(line),
  });
}

export async function runDocs(ctx: Ctx, opts: { open?: boolean; html?: string; mode?: FileMode }): Promise<DocsResult> {
  const url = docsUrl(ctx);
  const result: DocsResult = { url };
  if (opts.html !== undefined) {
    if (!opts.html.trim()) throw new UsageError('--html needs a file name', 'geo docs --html api-docs.html');
    // Refused before the download: a link, a FIFO, a second name, a folder (files/safe.ts).
    checkWritableFile(opts.html, 'the documentation page');
    const html = (await docsClient(ctx).docs()).data;
    await writeOwnFile(opts.html, 'the documentation page', html, opts.mode ? { mode: opts.mode } : {});
    result.saved = { file: opts.html, bytes: Buffer.byteLength(html) };
  }
  if (opts.open) result.opened = (await openUrl(url, ctx.env)) ?? false;
  return result;
}
