/** `geo export`: stored or NDJSON results to GeoJSON, KML, KMZ, CSV, JSON/NDJSON or an HTML map report. */
import { type Register, OFFLINE } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

export const register: Register = (program, act) => {
  declareJson('export', { names: [], open: true });
  program
    .command('export')
    .description('stored or NDJSON results as GeoJSON, KML, KMZ, CSV or HTML')
    .argument('[results...]', 'sha256 (6+ hex digits), analysis id, image or video file, batch id, sample:NAME, .ndjson/.json file, or - (stdin)')
    .option('--all', 'every stored result (latest per image unless --history)')
    .option('--history', 'every stored run of each selected image, not only the latest')
    .option('--include-sandbox', 'with --all: include sandbox answers (marked simulated)')
    .option('--out <file>', 'write to this file (its extension picks the format)')
    .option('--file-mode <mode>', '--out: 600 (default, only you) or 644 (everyone)')
    .option('--case <case>', 'this local case\'s results (and in geojson, kml, kmz its investigation: conclusion, places ruled out, notes\' points); the file is logged in custody')
    .addHelpText(
      'after',
      `
Formats (--format, else the extension of --out): geojson (QGIS), kml (Google Earth), kmz (KML
with the photos; binary: --out or a redirect), csv, json (full provenance records), ndjson (geo
locate's lines), html (one self-contained report with maps; --out or a redirect). Sandbox answers are simulated, never
evidence: --all leaves them out unless --include-sandbox, which marks them in every format.
Videos, sets and what each format holds: docs/evidence.md.

Examples (the first locates the samples shipped with geo in a sandbox, keeping their records):
  $ geo --sandbox locate sample:all --format ndjson > run.ndjson
  $ geo export run.ndjson --out run.csv
  $ geo export --all --include-sandbox --format geojson --out results.geojson
  $ geo export 8687352 --format html --out paris.html    # sha256 prefix
  $ geo export --all --include-sandbox --out all.kmz     # photos in balloons
  $ geo --sandbox locate sample:tokyo --format ndjson | geo export - --format kml
  $ geo cases create --name Demo --local
  $ geo --sandbox locate sample:paris --case Demo > /dev/null
  $ geo export --case Demo --out demo.kml      # sha256 in custody; the investigation drawn too`,
    )
    .action(act(async () => (await import('./handler.js')).exportResults, OFFLINE));
};
