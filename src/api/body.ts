/**
 * Request bodies built once and replayed byte for byte on every attempt: an Idempotency-Key only
 * replays for an identical payload (api-spec.md "States and transitions": a different payload
 * under the same key is a 409), so the bytes must never be rebuilt between attempts.
 */

/**
 * The image as base64 text, streamed so a 15 MB image is never held as three copies. stream() must
 * yield identical text on every call (one per attempt); chunks are ASCII strings or their bytes.
 */
export type B64Chunk = string | Uint8Array;
export interface ImageB64Source {
  /** In base64 characters, which are also the bytes on the wire. */
  length: number;
  stream(): AsyncIterable<B64Chunk>;
  /**
   * Checks, before a resend, that the source still holds the bytes of the first attempt (a file
   * changed in place must never go out under the same Idempotency-Key). Throws a
   * BodySourceError naming the input when it does not.
   */
  verify?(): Promise<void>;
}

/**
 * The local image source misbehaved (wrong length, read error). The server saw an incomplete body,
 * which it cannot act on, and resending would fail the same way: never retried.
 */
export class BodySourceError extends Error {
  override readonly name: string = 'BodySourceError';
}

/**
 * The input is no longer the bytes that were hashed (a file rewritten or cut short while geo sends
 * it). Nothing more goes out under its key: the body is left incomplete, so the server never gets
 * a second, different payload for one Idempotency-Key. A local input problem: exit 2 for it.
 */
export class InputChangedError extends BodySourceError {
  override readonly name = 'InputChangedError';
  constructor(readonly input: string, readonly hint = 'geo sends an image only as the bytes it hashed; run the same command again once the file stays put (it is then a new image with a new key)') {
    super(`${input}: the file changed while geo was sending it (its bytes no longer match the sha256 taken before the upload); nothing more was sent for it`);
  }
}

/** A body with a known length that can be produced again for each attempt. */
export interface RequestBody {
  length: number;
  /** A Buffer (reused as is) or a fresh iterable per attempt. */
  open(): Buffer | AsyncIterable<B64Chunk>;
  /** Before a resend: throws when the bytes would differ from the first attempt's (ImageB64Source.verify). */
  verify?(): Promise<void>;
}

/** JSON.stringify once; every attempt sends the same Buffer. */
export function jsonBody(value: unknown): RequestBody {
  const bytes = Buffer.from(JSON.stringify(value), 'utf8');
  return { length: bytes.length, open: () => bytes };
}

/**
 * `{"image_b64":"` + image bytes + `",` + the other fields + `}`. The image bytes go on the wire
 * without being parsed or copied into one string; Content-Length is exact, so a source that yields
 * a different count fails the attempt locally instead of sending a body the server would misread.
 */
export function streamedImageBody(rest: Record<string, unknown>, image: ImageB64Source): RequestBody {
  const restJson = JSON.stringify(rest);
  const head = Buffer.from('{"image_b64":"', 'utf8');
  // restJson is "{}" or "{...}": drop its opening brace and join it after the image string.
  const tail = Buffer.from(restJson === '{}' ? '"}' : `",${restJson.slice(1)}`, 'utf8');
  return {
    length: head.length + image.length + tail.length,
    open: () => imageBodyChunks(head, image, tail),
    ...(image.verify ? { verify: () => image.verify!() } : {}),
  };
}

async function* imageBodyChunks(head: Buffer, image: ImageB64Source, tail: Buffer): AsyncGenerator<B64Chunk> {
  yield head;
  let n = 0;
  const it = image.stream()[Symbol.asyncIterator]();
  try {
    for (;;) {
      let r: IteratorResult<B64Chunk>;
      try {
        r = await it.next();
      } catch (err) {
        if (err instanceof BodySourceError) throw err;
        throw new BodySourceError(`cannot read the image: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      if (r.done) break;
      n += typeof r.value === 'string' ? r.value.length : r.value.byteLength;
      if (n > image.length) throw new BodySourceError(`image source yielded more than its declared ${image.length} bytes`);
      yield r.value;
    }
  } finally {
    // Closed early (the attempt ended before the body was sent): let the source close its file.
    await it.return?.();
  }
  if (n !== image.length) throw new BodySourceError(`image source yielded ${n} bytes, declared ${image.length}`);
  yield tail;
}

/** The image bytes as an ImageB64Source, for callers that already hold them (tests, small images). */
export function imageFromBuffer(b64: Buffer | string, chunkSize = 64 * 1024): ImageB64Source {
  const bytes = typeof b64 === 'string' ? Buffer.from(b64, 'latin1') : b64;
  return {
    length: bytes.length,
    async *stream() {
      for (let i = 0; i < bytes.length; i += chunkSize) yield bytes.subarray(i, i + chunkSize);
    },
  };
}
