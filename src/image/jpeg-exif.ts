/**
 * A JPEG with an EXIF segment added: APP1 "Exif\0\0" and a TIFF structure (EXIF 2.32 4.5.4), placed
 * after SOI and JFIF's APP0, where readers look for it. For a conversion whose encoder could not
 * carry the original's EXIF (a HEIC's pixels, decoded apart): --keep-metadata must send what it says.
 */

/** The most TIFF one APP1 segment holds: its 16-bit length counts itself and the 6-byte identifier. */
const MAX_TIFF = 0xffff - 2 - 6;

/** `jpeg` with `tiff` as its EXIF, or undefined when the TIFF is too large for one segment. */
export function jpegWithExif(jpeg: Buffer, tiff: Buffer): Buffer | undefined {
  if (tiff.length > MAX_TIFF || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return undefined;
  const head = Buffer.alloc(10);
  head.writeUInt16BE(0xffe1, 0);
  head.writeUInt16BE(2 + 6 + tiff.length, 2);
  head.write('Exif\0\0', 4, 'latin1');
  // After SOI, and after a JFIF APP0 when the encoder wrote one (JFIF wants APP0 first).
  const app0 = jpeg[2] === 0xff && jpeg[3] === 0xe0 ? 2 + jpeg.readUInt16BE(4) : 0;
  const at = 2 + app0;
  return Buffer.concat([jpeg.subarray(0, at), head, tiff, jpeg.subarray(at)]);
}
