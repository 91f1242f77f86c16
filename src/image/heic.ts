/**
 * HEIC/HEIF pixels, for the JPEG the API takes (batch/convert.ts). sharp's prebuilt libvips reads
 * HEIF but has no HEVC decoder, so iPhone photos are decoded by libheif-js: libheif with its HEVC
 * decoder (libde265) compiled to WebAssembly, embedded in one JavaScript file, so installing it
 * compiles and downloads nothing, and reading a photo touches neither disk nor network (LGPL-3.0,
 * installed as its own package beside geo, never bundled into dist/).
 *
 * Loaded on the first HEIC only: 2 MB of JavaScript and ~30 ms to compile its WebAssembly, which a
 * command without a HEIC never pays. Reading is two steps, so the caller checks the picture's size,
 * as libheif parsed it from the file's boxes, before a single pixel is allocated (`decode`).
 */
import { UsageError } from '../errors.js';
import { MAX_IMAGE_BYTES } from '../api/schemas.js';

/** The slice of libheif-js's embind API used here (libheif-wasm/libheif.d.ts). */
interface LibHeif {
  heif_context_alloc(): Ctx;
  heif_context_free(c: Ctx): void;
  heif_context_read_from_memory(c: Ctx, bytes: Uint8Array): { code: unknown; message: string };
  heif_js_context_get_primary_image_handle(c: Ctx): Handle | { code: unknown; message?: string };
  heif_image_handle_get_width(h: Handle): number;
  heif_image_handle_get_height(h: Handle): number;
  heif_image_handle_release(h: Handle): void;
  heif_js_decode_image2(h: Handle, colorspace: unknown, chroma: unknown): Decoded | { code: unknown; message?: string };
  heif_image_release(image: unknown): void;
  heif_error_code: { heif_error_Ok: unknown };
  heif_colorspace: { heif_colorspace_RGB: unknown };
  heif_chroma: { heif_chroma_interleaved_RGB: unknown };
  heif_channel: { heif_channel_interleaved: unknown };
}
type Ctx = { readonly __ctx: unique symbol };
type Handle = { readonly __handle: unique symbol };
interface Decoded {
  image: unknown;
  channels: Array<{ id: unknown; stride: number; width: number; height: number; data: Uint8Array }>;
}
type Factory = (o: { print: (s: string) => void; printErr: (s: string) => void }) => LibHeif;

/** 8-bit RGB, as sharp takes raw input. */
export interface RawRgb {
  data: Buffer;
  width: number;
  height: number;
  channels: 3;
}

/** A parsed HEIF: the primary picture's size (transformations applied), its pixels on demand. */
export interface HeifPicture {
  width: number;
  height: number;
  decode(): RawRgb;
  free(): void;
}

/** A HEIC is read whole to be decoded: at most what a pipe is read whole with --downscale. */
export const MAX_HEIC_BYTES = 20 * MAX_IMAGE_BYTES;

const PACKAGE = 'libheif-js/libheif-wasm/libheif-bundle.js';
let loaded: Promise<LibHeif> | undefined;

function load(why: string): Promise<LibHeif> {
  loaded ??= (async () => {
    const name = PACKAGE; // a variable, so the build leaves the package outside the bundle
    let m: Factory | { default: Factory };
    try {
      m = (await import(name)) as Factory | { default: Factory };
    } catch {
      throw new UsageError(`${why} needs the HEIC decoder libheif-js, which is not installed`, 'npm install libheif-js (in the folder geo is installed in), or export the photo as JPEG first');
    }
    // libheif writes its warnings to the console; geo's stderr carries one line per problem.
    const silent = () => undefined;
    return (typeof m === 'function' ? m : m.default)({ print: silent, printErr: silent });
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

const failed = (r: unknown): r is { code: unknown; message?: string } => typeof r === 'object' && r !== null && 'code' in r && !('channels' in r);

/**
 * Parses `bytes` (the whole file: HEIF keeps its boxes anywhere). Throws an Error with libheif's
 * reason when the file is no HEIF it can read.
 */
export async function openHeif(bytes: Uint8Array, why: string): Promise<HeifPicture> {
  const lib = await load(why);
  const ctx = lib.heif_context_alloc();
  let handle: Handle | undefined;
  const free = () => {
    if (handle) lib.heif_image_handle_release(handle);
    lib.heif_context_free(ctx);
    handle = undefined;
  };
  try {
    const read = lib.heif_context_read_from_memory(ctx, bytes);
    if (read.code !== lib.heif_error_code.heif_error_Ok) throw new Error(read.message);
    const h = lib.heif_js_context_get_primary_image_handle(ctx);
    if (failed(h)) throw new Error(h.message ?? 'no primary image');
    handle = h;
  } catch (err) {
    free();
    throw dropIfBroken(err);
  }
  const primary = handle;
  return {
    width: lib.heif_image_handle_get_width(primary),
    height: lib.heif_image_handle_get_height(primary),
    decode: () => {
      try {
        return pixels(lib, primary);
      } catch (err) {
        throw dropIfBroken(err);
      }
    },
    free,
  };
}

/** Decodes to interleaved RGB and copies it out of the WebAssembly heap, which the next decode reuses. */
function pixels(lib: LibHeif, handle: Handle): RawRgb {
  const img = lib.heif_js_decode_image2(handle, lib.heif_colorspace.heif_colorspace_RGB, lib.heif_chroma.heif_chroma_interleaved_RGB);
  if (failed(img)) throw new Error(img.message ?? 'decoding failed');
  try {
    const c = img.channels.find((x) => x.id === lib.heif_channel.heif_channel_interleaved);
    if (!c || c.stride < c.width * 3) throw new Error('no RGB plane decoded');
    const row = c.width * 3;
    const data = Buffer.allocUnsafe(row * c.height);
    if (c.stride === row) data.set(c.data.subarray(0, data.length));
    else for (let y = 0; y < c.height; y++) data.set(c.data.subarray(y * c.stride, y * c.stride + row), y * row);
    return { data, width: c.width, height: c.height, channels: 3 };
  } finally {
    lib.heif_image_release(img.image);
  }
}

/**
 * A WebAssembly trap (out of memory, an abort inside libde265) leaves the module's state unknown:
 * the next HEIC gets a fresh instance. libheif's own errors leave it usable.
 */
function dropIfBroken(err: unknown): unknown {
  if (err instanceof Error && (err.name === 'RuntimeError' || /^Aborted\(/.test(err.message))) loaded = undefined;
  return err;
}
