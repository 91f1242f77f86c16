/** `geo export`: stored or NDJSON results to GeoJSON, KML, KMZ, CSV, JSON/NDJSON or an HTML map report. */
import type { Register } from '../types.js';
import { FILE_MODE_HELP } from '../../flags.js';
import { declareJson } from '../../output/json-fields.js';

export const register: Register = (program, act) => {
  declareJson('export', { names: [], open: true });
  program
    .command('export')
    .description('turn stored results or NDJSON output into GeoJSON, KML, KMZ, CSV, JSON, NDJSON or an HTML map report')
    .argument('[results...]', 'sha256 (or a prefix of 6+ hex digits), analysis id, an image or video file (its stored results), the batch id geo history lists for a video or a set, sample:NAME, .ndjson/.jsonl/.json file, or - for stdin')
    .option('--all', 'every stored result (latest per image unless --history)')
    .option('--history', 'every stored run of each selected image, not only the latest')
    .option('--include-sandbox', 'with --all: include answers of a geo sandbox (simulated; marked sandbox in every format)')
    .option('--out <file>', 'write to this file instead of stdout (the format can come from its extension; 0600: see --file-mode)')
    .option('--file-mode <mode>', `--out: ${FILE_MODE_HELP}`)
    .option('--case <case>', 'the results linked to this local case (its id or name), and the file written logged in its custody log with its sha256')
    .addHelpText(
      'after',
      `
Formats (global --format): geojson (RFC 7946, QGIS), kml (Google Earth), kmz (the KML zipped
with each result's photo shown in its placemark balloon; binary: --out or a redirect, never a
terminal), csv (one row per result, last column stored_at: when the answer was received, UTC),
json (an array of the full provenance records: time, request, body as received, headers, EXIF
check), ndjson (one line per result in geo locate's form {"input","sha256","ok","result","exif"}),
html (one self-contained report: several results open with a summary table and an overview map;
each has its image, result, evidence, candidates, EXIF check, capture time and camera, Google /
OpenStreetMap / Apple Maps links and a map with a scale bar, OpenStreetMap or satellite tiles
online and country outlines offline).
Without --format, the extension of --out decides (.geojson .kml .kmz .csv .json .ndjson .html).

Stored results are what geo locate, eval, mcp and api keep in the store, one SQLite file,
$XDG_DATA_HOME/geo/geo.db (GEO_DATA_DIR overrides); --all streams them, so a store of a million
results exports in constant memory. A sandbox's answers are simulated, never evidence: --all
leaves them out unless --include-sandbox, and then marks them (sandbox: true in GeoJSON and
NDJSON, a [sandbox] folder name and "simulated answer (sandbox): not evidence" first in every KML
balloon, that mark in CSV's sandbox column, a banner and a mark per result in HTML). Every
feature carries a role property: estimate, candidate, exif (the photo's own GPS) or scope (the
search circle).

Videos and photo sets: the frames of a video (and photos located --together) are drawn as locate
drew them, one scene per video (or set) at each depth: in GeoJSON after the other results, with
roles consensus, cluster, spread (the circle holding the frames that agree) and frame; in KML a
Document per scene, its clusters as folders. One video alone (its file, or the batch id geo
history lists) as html is its report with the frame strip, as kmz its scene KMZ (a set's photos in
the balloons; a video's frames are not kept). csv, json and ndjson stay one row per frame. --all
holds each frame (about 1 KB) until the other results have streamed out.

Examples (the first locates the samples shipped with geo in a sandbox, keeping their records):
  $ geo --sandbox locate sample:all --format ndjson > run.ndjson
  $ geo export run.ndjson --out run.csv
  $ geo export --all --include-sandbox --format geojson --out results.geojson
  $ geo export 8687352 --format html --out paris.html      # by sha256 prefix (sample:paris)
  $ geo export --all --include-sandbox --format kml > all.kml
  $ geo export --all --include-sandbox --out all.kmz      # Google Earth, photos in the balloons
  $ geo export --all --include-sandbox --out all.html     # summary table, overview map, one section each
  $ geo --sandbox locate sample:tokyo --format ndjson | geo export - --format geojson
  $ geo --sandbox locate sample:clip --every 2 > /dev/null                  # a video (ffmpeg)
  $ geo export sample:clip --format kml > clip.kml                          # its consensus, clusters, frames
  $ geo cases create --name Demo --local
  $ geo --sandbox locate sample:paris --case Demo > /dev/null
  $ geo export --case Demo --out demo.kml      # the case's results; the file's sha256 goes in its log

Also: geo export --all --json > archive.json (every stored result, offline; ndjson too);
      geo export photo.jpg --history --format csv (every stored run of this image);
      geo export an_01HV… --format kml (by analysis id);
      … | geo export - --format geojson | ogrinfo -ro -al -so /vsistdin/ (GDAL reads it)`,
    )
    .action(act(async () => (await import('./handler.js')).exportResults));
};
