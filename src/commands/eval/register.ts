/** `geo eval <inputs...>`: how good the service is on images whose true position is known (issue 14). */
import type { Register } from '../types.js';
import { FILE_MODE_HELP } from '../../flags.js';
import { declareJson } from '../../output/json-fields.js';

export const register: Register = (program, act) => {
  declareJson('eval', { names: [], open: true });
  program
    .command('eval')
    .description('measure accuracy and calibration on images with a known position (EXIF GPS or --truth)')
    .argument('[input...]', 'JPEG/PNG files or folders (WebP, AVIF, TIFF, GIF converted), sample:NAME, or videos (with --truth)')
    .option('-d, --depth <list>', '1, 2 or 3, or several side by side: 1,3 (default 1 or `geo config get depth`)')
    .option('-e, --effort <level>', 'instant, low, medium or high; at most each depth\'s normal level')
    .option('--truth <file>', 'true positions: CSV file,lat,lng or GeoJSON Points with a "file" property (default: each image\'s EXIF GPS)')
    .option('--correct-within <km>', 'an answer within this many km is correct, for calibration and credits per correct (default 25)')
    .option('--from <results.ndjson>', 'compute from geo locate\'s NDJSON output instead of locating: nothing is sent')
    .option('--from-file <list>', 'read inputs from this file, one path per line (# comments)')
    .option('--concurrency <n>', 'requests in flight at most, 1-256 (default: what the rate limit needs)')
    .option('--fresh', 'ignore the journal and your stored results: analyse again (charged again)')
    .option('--downscale', 'fit images above the 20 MB base64 limit under it as JPEG instead of refusing them')
    .option('--keep-metadata', 'send files with their metadata, EXIF GPS included: measures a service that may read the answer from the file (default: removed)')
    .option('--dry-run', 'print the plan of every depth with its cost; send nothing')
    .option('--max-credits <n>', 'a budget for all depths together: refuse (exit 2, nothing sent) a plan above N')
    .option('--report <file.html>', 'also write a self-contained HTML page: figures, error CDF, reliability diagram (0600: see --file-mode)')
    .option('--file-mode <mode>', `--report: ${FILE_MODE_HELP}`)
    .option('--no-store', 'do not keep provenance records of the results (default: kept, so they are never paid twice)')
    .option('--case <case>', 'link each result to this local case (its id or name; geo cases create) and log it in the case\'s custody log, as geo locate --case does')
    .option('--every <seconds>', 'videos: at least one frame every this many seconds (default 10)')
    .option('--scene <0-1>', 'videos: a frame whose ffmpeg scene score is above this starts a new shot (default 0.3)')
    .option('--max-frames <n>', 'videos: frames sent at most per clip, 1-100 (default 12)')
    .option('--max-duration <length>', 'videos: refuse a clip longer than this, e.g. 2h, 90m (default 2h)')
    .option('--agree-km <km>', 'videos and --together: answers this close agree (default 25)')
    .option('--claims [truth]', 'calibrate claim checks instead: from each image of known position (the rows of this truth file, or the images named) a true claim and false ones, checked as geo claims check does')
    .option('--within <km>', 'with --claims: every claim\'s tolerance (default 25)')
    .option('--claim-distances <list>', 'with --claims: how far the false claims lie from the truth, in km (default 25,200,750,2500)')
    .option('--seed <n>', 'with --claims: the seed that places the false claims (default 1)')
    .option('--scoped', 'with --claims: also send each claim as a scope, as geo claims check --scoped does')
    .option('--together', 'each folder named is one set of photos of one scene: scored by its consensus beside each photo (its truth: the folder\'s row in --truth)')
    .addHelpText(
      'after',
      `
Truth: each image's own EXIF GPS, read locally and never sent (geo removes metadata before
upload, so the service cannot read the answer from the file; --keep-metadata sends it, to measure
how much a service leans on it; a 0,0 placeholder is no position), or --truth FILE: CSV "file,lat,lng" (header optional,
quoted fields, paths relative to the truth file, an image also found by its file name when one
row has it) or a GeoJSON FeatureCollection of Points [lng, lat] with a "file" property. With
--truth, only the file counts. Images without a truth are listed on stderr and never sent.

Figures (--json is one object; with several depths the top level pools every answer and
by_depth {"1": {...}} holds each depth's):
  n, scored            images with a truth; those answered with a location (failures: n only)
  accuracy             share of scored answers within 1, 25, 200, 750 and 2500 km (0-1):
                       street, city, region, country, continent (Im2GPS3k, YFCC4k)
  error_km             median, mean and p90 of the error in km; quantiles interpolate
                       linearly: sorted x[0..n-1], h = (n-1)q, x[h0] + (h-h0)(x[h0+1]-x[h0]),
                       h0 = floor(h) (numpy's default, Excel PERCENTILE.INC)
  calibration          correct = within --correct-within km (default 25); 10 bins of
                       confidence [0,0.1) ... [0.9,1] with n, mean_confidence, accuracy (an
                       empty bin: n 0, nulls); ece = sum over bins of n_b/N |accuracy - confidence|
  abstention           for each bin edge t: coverage (share with confidence >= t) and accuracy
                       among them: what abstaining below t would keep
  advice               the depth-3 calibration advice: accuracy where it said publish and where
                       it said abstain, and how often it was right (null without depth 3)
  credits              spent: what the scored answers cost at 1, 2 or 10 credits, each image
                       once, paid now or earlier; per_correct: spent / correct (null if none)
--format ndjson prints one line per image and depth: input, truth, estimate, error_km,
confidence, correct, depth. Confidence is 0-1, as the API gives it.

Money: each depth is one batch of the engine locate uses: one plan for all depths (consent above
the confirm threshold, --max-credits for the total, --dry-run), a journal per depth, results
already paid reused from the journal or your stored results (a rerun sends nothing), pacing at
the rate limit. --from computes from a locate NDJSON file and sends nothing at all.

Exit codes: 0 figures printed; 2 bad flags or truth file, no image with a truth, a plan above
--max-credits or not confirmed (nothing sent); 3 auth; 4 credits or the budget ran out (the
service charged more than the plan priced); 5 rate limited; 6 service; 7 some images failed
(the figures count them in n, not in scored); 130 interrupted.
A rerun of the same command finishes a stopped evaluation, paying nothing twice.

Videos (issue 23; need ffmpeg): a video's truth is a row of --truth FILE. Its frames are chosen
and located as geo locate clip.mp4 does (--every, --scene, --max-frames, --max-duration,
--agree-km), then scored twice: every frame on its own (the figures above), and one consensus per
video ("consensus" in --json; its confidence is the share of frames that agree, its credits the
frames'), side by side on the terminal: what the consensus buys. Videos and photos go in
separate runs.

Photo sets (--together): each folder named is one set of photos of one scene, located as geo
locate FOLDER --together does (one batch per set and depth), its truth the row of --truth that
names the folder (scene1,48.8584,2.2945; relative to the truth file). Every photo is scored
against it on its own, and the set's consensus as one answer, side by side as for videos.

Claim checks (--claims, issue 33): from each image of known position, one true claim (its real
place) and one false claim per --claim-distances (25, 200, 750, 2500 km), each the offline
index's place nearest the point that far along a seeded bearing (README "Claim checks"), every
claim with tolerance --within (25 km). Each image is located once per depth (its claims share
the answer; stored answers reused free), the rules of geo claims check give each claim a
verdict, and per depth: false_accusation_rate (true claims called contradicts), detection_rate
(false claims called contradicts, also per distance), agree_rate and unverifiable_share of each,
and credits per claim (each image once, and each --scoped request, at its depth's cost).
--format ndjson: one line per claim and depth (the claim, its verdict and rule, the distances to
the estimate, the nearest candidate and the EXIF GPS). With geo sandbox --truth FILE the answers
follow a known model, so the figures can be checked by hand.
  $ geo --sandbox eval sample:all --claims --dry-run     # the samples' EXIF GPS as truth; the plan

Examples (run as written, against an in-process sandbox; the samples carry EXIF GPS but
sample:nogps, which is listed and skipped):
  $ geo --sandbox eval sample:all
  $ geo --sandbox eval sample:all --json > eval.json
  $ geo --sandbox eval sample:all --depth 3 --max-credits 5              # exit 2: costs 40, nothing sent
  $ geo --sandbox eval sample:all --depth 1,3 --yes --report eval.html   # 44 credits: consent
  $ geo --sandbox eval sample:all --depth 3 --dry-run                    # the plan; nothing sent
  $ geo --sandbox eval sample:all --format ndjson --correct-within 1
  $ geo --sandbox locate sample:all --depth 2 > results.ndjson
  $ geo eval --from results.ndjson                                       # no request at all
  $ geo cases create --name Bench --local
  $ geo --sandbox eval sample:all --case Bench --report bench.html        # results linked, report logged
  $ echo one-place.mp4,-16.8,180 > truth.csv                             # where sample:take was filmed
  $ geo --sandbox eval sample:take --truth truth.csv --every 2           # frames beside the consensus (ffmpeg)

With your own key and photos:
  geo eval photos/ --depth 1,2,3 --max-credits 500 --report eval.html
  geo eval photos/ --truth truth.csv --correct-within 1
  geo eval --claims truth.csv --depth 1,3 --yes           # claim checks calibrated; truth.csv: file,lat,lng
  geo eval photos/ --claims --depth 1,3 --yes             # the photos' EXIF GPS as truth
  geo eval scene1/ scene2/ --together --truth truth.csv   # photo sets: a row per folder, e.g. scene1,48.8584,2.2945`,
    )
    .action(act(async () => (await import('./run.js')).evaluateImages));
};
