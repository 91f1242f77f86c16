/**
 * KMZ: a zip of doc.kml (first entry, as Google Earth expects) and each result's image under
 * files/, shown in its estimate placemark's balloon (<img src="files/...">). Images are the same
 * thumbnails the HTML report embeds (thumbnail.ts: an 800 px JPEG with sharp, else the file as is);
 * a result without one says why in its balloon.
 */
import { createHash } from 'node:crypto';
import { type Balloon, renderKML } from './kml.js';
import { type ExportCase, caseKmlDocument } from './case-geo.js';
import type { ReportSource } from './model.js';
import { thumbnailImage } from './thumbnail.js';
import { type ZipEntry, writeZip } from './zip.js';

const EXTENSION: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };
/** Wide enough for a balloon (400 px shown) on a high-density screen. */
const BALLOON_EDGE = 800;
/** 16 hex digits of sha256: unique within any plausible archive, short in a balloon's HTML. */
const NAME_DIGITS = 16;

/** `kase`: a case's investigation, drawn in doc.kml after its results (kml.ts). */
export async function renderKMZ(sources: readonly ReportSource[], opts: { now: number; useSharp?: boolean; kase?: ExportCase }): Promise<Buffer> {
  const files = new Map<string, ZipEntry>();
  const balloons: Balloon[] = [];
  for (const s of sources) {
    if (!s.imageBytes) {
      balloons.push({ missing: s.missingImage ?? 'image not available' });
      continue;
    }
    const thumb = await thumbnailImage(s.imageBytes, { maxEdge: BALLOON_EDGE, ...(opts.useSharp === false ? { useSharp: false } : {}) });
    if (!thumb) {
      balloons.push({ missing: 'not an image format a viewer shows' });
      continue;
    }
    const sha = /^[0-9a-f]{64}$/.test(s.record.input.sha256) ? s.record.input.sha256 : createHash('sha256').update(s.imageBytes).digest('hex');
    const name = `files/${sha.slice(0, NAME_DIGITS)}.${EXTENSION[thumb.mime] ?? 'img'}`;
    files.set(name, { name, data: thumb.bytes, compress: false });
    balloons.push({ image: name });
  }
  const kml = renderKML(sources.map((s) => s.record), 'geo results', balloons, opts.kase ? caseKmlDocument(opts.kase.geometry, opts.kase.title) : '');
  return writeZip([{ name: 'doc.kml', data: Buffer.from(kml, 'utf8'), compress: true }, ...files.values()], new Date(opts.now));
}
