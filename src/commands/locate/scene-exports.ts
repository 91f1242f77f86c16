/**
 * A scene's files: --format geojson|kml|kmz|html and --report draw the consensus, its
 * clusters and the frames (output/export/scene-*.ts); csv stays one row per answered frame or photo
 * (their provenance records), as for any batch.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Ctx } from '../../context.js';
import { type FileMode, writeOwnFile } from '../../files/own-file.js';
import type { ProvenanceRecord } from '../../evidence/records.js';
import { isSimulated } from '../../evidence/simulated.js';
import { renderExport } from '../../output/export/index.js';
import { renderSceneGeoJSON, renderSceneKML } from '../../output/export/scene-geo.js';
import { renderSceneKMZ } from '../../output/export/scene-kmz.js';
import { sceneReportHtml } from '../../output/export/scene-report.js';
import type { SceneResult } from './run.js';

/** Frame index -> the image: a video's frames are held; a set's photos are read again. */
async function imagesOf(res: SceneResult): Promise<Map<number, Uint8Array>> {
  const out = new Map<number, Uint8Array>();
  if (res.frames) for (const f of res.frames.frames) out.set(f.index, f.bytes);
  else {
    for (const f of res.scene.frames) {
      const bytes = await readFile(resolve(f.input)).catch(() => undefined);
      if (bytes) out.set(f.index, bytes);
    }
  }
  return out;
}

/** `records`: the provenance of the scene's answers, whose sandbox flags mark the files (evidence/simulated.ts). */
async function report(ctx: Pick<Ctx, 'now' | 'version'>, res: SceneResult, records: readonly ProvenanceRecord[], warn: (l: string) => void): Promise<string> {
  return sceneReportHtml(res.scene, await imagesOf(res), { generatedAt: new Date(ctx.now()).toISOString(), cliVersion: ctx.version, simulated: records.filter(isSimulated).length }, warn);
}

export async function sceneExport(ctx: Pick<Ctx, 'now' | 'version'>, format: string, res: SceneResult, records: ProvenanceRecord[], warn: (l: string) => void): Promise<string | Buffer | undefined> {
  const sandbox = records.some(isSimulated);
  switch (format) {
    case 'geojson':
      return renderSceneGeoJSON(res.scene, sandbox);
    case 'kml':
      return renderSceneKML(res.scene, undefined, sandbox);
    case 'kmz':
      return renderSceneKMZ(res.scene, await imagesOf(res), ctx.now(), sandbox);
    case 'html':
      return report(ctx, res, records, warn);
    case 'csv':
      return renderExport('csv', records);
    default:
      return undefined;
  }
}

/** --report FILE: written after the run, whatever the exit code, when the scene has an answer; the HTML written. */
export async function writeSceneReport(ctx: Pick<Ctx, 'now' | 'version'>, file: string, res: SceneResult, records: readonly ProvenanceRecord[], warn: (l: string) => void, mode?: FileMode): Promise<string | undefined> {
  if (res.scene.answered === 0) {
    warn(`--report ${file}: no answer to report, nothing written`);
    return undefined;
  }
  const html = await report(ctx, res, records, warn);
  // The photos of a set are read again for it, a video's frames came from its file: neither is the report.
  const read = () => [...res.scene.frames.map((f) => f.input), ...(res.scene.kind === 'video' ? [res.scene.input] : [])];
  await writeOwnFile(file, 'the report', html, { inputs: read, ...(mode ? { mode } : {}) });
  warn(`report: ${file} (${res.scene.clusters.length} place${res.scene.clusters.length === 1 ? '' : 's'}, ${res.scene.answered} answers)`);
  return html;
}
