/**
 * A scene's KMZ: scene-geo.ts's KML as doc.kml, and each frame (or photo) under files/,
 * shown in its placemark's balloon: the same thumbnails the report embeds (thumbnail.ts).
 */
import type { SceneJson } from '../../media/scene.js';
import { renderSceneKML } from './scene-geo.js';
import { thumbnailImage } from './thumbnail.js';
import { type ZipEntry, writeZip } from './zip.js';

const BALLOON_EDGE = 800;

/** `sandbox`: a geo sandbox answered, and every balloon says so first (scene-geo.ts). */
export async function renderSceneKMZ(s: SceneJson, images: ReadonlyMap<number, Uint8Array>, now: number, sandbox = false): Promise<Buffer> {
  const files: ZipEntry[] = [];
  const names = new Map<number, string>();
  for (const f of s.frames) {
    const bytes = images.get(f.index);
    const thumb = bytes && (await thumbnailImage(bytes, { maxEdge: BALLOON_EDGE }));
    if (!thumb) continue;
    const name = `files/${String(f.index).padStart(3, '0')}-${(f.sha256 ?? 'image').slice(0, 16)}.${thumb.mime === 'image/png' ? 'png' : 'jpg'}`;
    files.push({ name, data: thumb.bytes, compress: false });
    names.set(f.index, name);
  }
  return writeZip([{ name: 'doc.kml', data: Buffer.from(renderSceneKML(s, names, sandbox), 'utf8'), compress: true }, ...files], new Date(now));
}
