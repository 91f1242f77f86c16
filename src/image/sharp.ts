/**
 * sharp (libvips), loaded only when something needs pixels: conversions and --downscale
 * (batch/convert.ts), report thumbnails (output/export/thumbnail.ts), the sandbox's scene markers
 * (sandbox/marker.ts). Every caller declares the slice of sharp's API it uses, so the optional
 * package's types are never required. Undefined when sharp is not installed.
 */
export async function optionalSharp<T>(): Promise<T | undefined> {
  const name = 'sharp'; // a variable, so neither tsc nor esbuild insists on the optional package
  try {
    const m = (await import(name)) as { default?: T } & T;
    return m.default ?? m;
  } catch {
    return undefined;
  }
}
