/**
 * The JPEG planner of metadata removal (strip.ts), after ITU T.81 B.1: kept are every marker
 * segment that describes the picture (SOF, DHT, DQT, DRI, SOS and the scans), JFIF (APP0), the ICC
 * profile (APP2 "ICC_PROFILE") and Adobe (APP14, colour transform); removed are APP1 (EXIF, XMP),
 * APP13 (IPTC), APP11 (JUMBF: C2PA manifests), COM, every other APPn (MPF, FPXR, JFXX thumbnails, maker segments) and whatever
 * follows EOI (appended gain maps and previews). The scans are walked only to find EOI.
 */
import { type ByteSource, Plan, type StripPlan, TRAILER } from './strip-plan.js';
import { minimalTiff, readTiffIfd0 } from './tiff.js';

/** Scan data is searched for markers this many bytes at a time (strip.ts reads files in such windows). */
export const WINDOW = 64 * 1024;

const SOS = 0xda;
const EOI = 0xd9;
const COM = 0xfe;
const APP1 = 0xe1;
const isApp = (m: number) => m >= 0xe0 && m <= 0xef;
/** Markers without a length: TEM and RST0-7 (T.81 table B.1). */
const standalone = (m: number) => m === 0x01 || (m >= 0xd0 && m <= 0xd7);
const EXIF_ID = Buffer.from('Exif\0\0', 'latin1');

/** What an APPn/COM segment is, and whether it stays. `head` is the start of its payload. */
function judgeSegment(marker: number, head: Buffer): { keep: true } | { keep: false; what: string } {
  const id = (s: string) => head.subarray(0, s.length).toString('latin1') === s;
  if (marker === COM) return { keep: false, what: 'comment' };
  if (marker === 0xe0) return id('JFIF\0') ? { keep: true } : { keep: false, what: id('JFXX\0') ? 'JFIF thumbnail (JFXX)' : 'APP0' };
  if (marker === APP1) return { keep: false, what: id('Exif\0') ? 'EXIF' : id('http://ns.adobe.com/') ? 'XMP' : 'APP1' };
  if (marker === 0xe2) return id('ICC_PROFILE\0') ? { keep: true } : { keep: false, what: id('MPF\0') ? 'MPF (APP2)' : 'APP2' };
  if (marker === 0xed) return { keep: false, what: 'IPTC (APP13)' };
  if (marker === 0xee && id('Adobe')) return { keep: true };
  // JPEG XT boxes ("JP"): JUMBF, which is where C2PA content credentials sit (image/c2pa-find.ts).
  if (marker === 0xeb && id('JP')) return { keep: false, what: 'C2PA/JUMBF (APP11)' };
  return { keep: false, what: `APP${marker - 0xe0}` };
}

export async function planJpeg(src: ByteSource): Promise<StripPlan> {
  const p = new Plan();
  p.keep(0, 2); // SOI
  let pos = 2;
  let afterJfif = -1;
  let inScan = false;
  let keptFrom = pos;
  for (;;) {
    if (inScan) {
      // Inside entropy-coded data only a marker ends it; EOI is then handled below like any marker.
      const m = await nextMarker(src, pos);
      if (m === undefined) {
        p.keep(keptFrom, src.size); // truncated: no EOI; send what there is
        break;
      }
      pos = m.at;
    }
    const hdr = await src.read(pos, 4);
    if (hdr.length < 2 || hdr[0] !== 0xff) {
      // Not a marker where one must be: a damaged header. Send the rest untouched rather than guess.
      p.keep(keptFrom, src.size);
      break;
    }
    const marker = hdr[1]!;
    if (marker === 0xff) {
      pos += 1; // a fill byte before the marker (T.81 B.1.1.2)
      continue;
    }
    if (marker === EOI) {
      p.keep(keptFrom, pos + 2);
      p.drop(TRAILER, src.size - (pos + 2));
      break;
    }
    if (standalone(marker)) {
      pos += 2;
      continue;
    }
    if (hdr.length < 4) {
      p.keep(keptFrom, src.size);
      break;
    }
    const end = pos + 2 + hdr.readUInt16BE(2);
    if (isApp(marker) || marker === COM) {
      const payload = await src.read(pos + 4, marker === APP1 ? end - pos - 4 : 32);
      const verdict = judgeSegment(marker, payload);
      if (verdict.keep) {
        if (marker === 0xe0 && pos === 2) afterJfif = end;
      } else {
        p.keep(keptFrom, pos);
        keptFrom = end;
        if (verdict.what === 'EXIF') p.dropExif(end - pos, readTiffIfd0(payload.subarray(EXIF_ID.length)));
        else p.drop(verdict.what, end - pos);
      }
    }
    if (marker === SOS) inScan = true;
    pos = end;
    if (pos > src.size) {
      p.keep(keptFrom, src.size);
      break;
    }
  }
  // The minimal EXIF goes where EXIF belongs: first, or right after a leading JFIF.
  if (p.orientation !== undefined) p.insert(afterJfif > 0 ? afterJfif : 2, exifSegment(p.orientation));
  return p.done();
}

function exifSegment(orientation: number): Buffer {
  const payload = Buffer.concat([EXIF_ID, minimalTiff(orientation)]);
  const seg = Buffer.alloc(4);
  seg.writeUInt16BE(0xff00 | APP1, 0);
  seg.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([seg, payload]);
}

/**
 * The next marker at or after `pos` inside entropy-coded data: 0xFF followed by anything but 0x00
 * (a stuffed byte), RST0-7 or another 0xFF (fill). Read in windows; undefined at the end of file.
 */
async function nextMarker(src: ByteSource, pos: number): Promise<{ at: number; marker: number } | undefined> {
  let at = pos;
  while (at < src.size) {
    const win = await src.read(at, WINDOW);
    if (win.length === 0) return undefined;
    let i = win.indexOf(0xff);
    while (i !== -1) {
      const next = i + 1 < win.length ? win[i + 1]! : (await src.read(at + i + 1, 1))[0];
      if (next === undefined) return undefined;
      if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) return { at: at + i, marker: next };
      i = win.indexOf(0xff, i + 1);
    }
    at += win.length;
  }
  return undefined;
}
