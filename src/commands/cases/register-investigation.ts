/**
 * `geo cases note | rule-out | conclude | clues`: the investigation itself, as custody entries in
 * the case's own chain (evidence/investigation-events.ts). All offline: no key, nothing sent.
 */
import type { Command } from 'commander';
import { type Act, OFFLINE } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

const collect = (v: string, prev: string[] | undefined) => [...(prev ?? []), v];
/** What every appended entry's --json gives (investigation-append.ts Appended). */
const APPENDED = ['case', 'entry', 'hash', 'at', 'signed'];
/** A local case with answers to work on, for the examples (the sandbox's: simulated, never evidence). */
const SETUP = `  $ geo cases create --name Demo --local
  $ geo --sandbox locate sample:paris sample:tokyo --depth 3 --case Demo > /dev/null`;
const SAYS = `Every entry names its author (OS user, host, the signing key's fingerprint; on a team store
the database role) and time, and is signed at once when a signing key is chosen (geo keys
signing use). Bad input is exit 2 with nothing appended. More: docs/cases.md "Working a case".`;

export function registerInvestigation(cases: Command, act: Act): void {
  declareJson('cases note', { names: [...APPENDED, 'note'] });
  declareJson('cases conclude', { names: [...APPENDED, 'conclusion', 'superseded_entry'] });
  declareJson('cases rule-out', { names: [...APPENDED, 'ruled_out'] });
  // The list, or the judgement appended.
  declareJson('cases clues', { names: ['case', 'items', 'simulated', ...APPENDED.slice(1), 'judgement'] });

  cases
    .command('note')
    .summary('record an observation or a hypothesis')
    .description('an observation (what is seen) or a hypothesis, with the results, clues and exhibits it rests on: appended to a local case\'s custody log')
    .argument('<case>', 'the case: its id (geo\'s or the service\'s) or its name')
    .option('--observation <text>', 'what is seen')
    .option('--hypothesis <text>', 'what is supposed')
    .option('--result <id>', 'a result it points at: r2 (the case\'s order), an analysis id or a sha256 prefix (repeatable)', collect)
    .option('--clue <id>', 'a clue it points at, as geo cases clues lists them: r2.clue3, r1.cand1 (repeatable)', collect)
    .option('--exhibit <file>', 'an image it rests on (a reference photo, a map screenshot), kept in the store by its sha256 (repeatable; each takes a --source)', collect)
    .option('--source <url|text>', 'where the --exhibit before it came from: a URL or words', collect)
    .addHelpText(
      'after',
      `
One of --observation and --hypothesis, in your words. Each --exhibit is read whole (an image of
at most 15 MB, its type read from its bytes), kept in the store by its sha256, and named in the
entry with its --source (each --exhibit takes the --source after it). Every result, clue and
exhibit is checked before anything is kept: one that is unknown is exit 2.

${SAYS}

Examples (the sandbox's answers are simulated; yours work the same way):
${SETUP}
  $ geo cases note Demo --observation "Haussmann facades; a Metro entrance" --result r1
  $ geo cases note Demo --hypothesis "the 8th arrondissement" --clue r1.clue1 --json
  $ geo cases note Demo --observation ""        # exit 2: no words, nothing appended
  $ geo cases note Demo --observation "x" --result r9   # exit 2: no such result

With your own files:
  geo cases note Demo --observation "the same kiosk" --exhibit kiosk.png --source "https://www.mapillary.com/…"`,
    )
    .action(act(async () => (await import('./note.js')).note, OFFLINE));

  cases
    .command('clues')
    .summary('the results\' clues by id; accept or reject')
    .description('every clue, forensic support, contradiction and candidate of a local case\'s results, by a stable id, with your judgement; accept or reject one')
    .argument('<case>', 'the case: its id (geo\'s or the service\'s) or its name')
    .argument('[verdict]', 'accept or reject (none: list them)')
    .argument('[id]', 'the item judged: r2.clue3 (visual clue 3 of result 2), r1.support1, r1.contra1, r1.cand2')
    .option('--because <text>', 'why, in your words (needed to judge)')
    .addHelpText(
      'after',
      `
Ids are r<N>.<kind><M>: N the result's place in the case (the order it was linked, from 1), M
the item's place in its list in the raw answer; kind clue (visual_clues), support and contra
(the forensic object's supports and contradictions), cand (its candidates). They never change:
the answer is hashed. Visual clues come at depth 2 and 3, the forensic items at depth 3. A clue
judged again shows the latest judgement; both stay in the log. Items of a sandbox's answers are
marked simulated.

${SAYS}

Examples (the sandbox's answers are simulated; yours work the same way):
${SETUP}
  $ geo cases clues Demo
  $ geo cases clues Demo accept r1.clue1 --because "the same traffic side in the street view"
  $ geo cases clues Demo reject r2.cand1 --because "the skyline has no such tower" --json
  $ geo cases clues Demo --json | jq -r '.items[] | select(.judgement) | .id'
  $ geo cases clues Demo accept r1.clue99 --because x   # exit 2: no such clue`,
    )
    .action(act(async () => (await import('./clues.js')).clues, OFFLINE));

  cases
    .command('rule-out')
    .summary('record a place ruled out, and why')
    .description('a place ruled out, and why: a point or place with a radius, or a GeoJSON polygon; appended to a local case\'s custody log')
    .argument('<case>', 'the case: its id (geo\'s or the service\'s) or its name')
    .option('--at <place|lat,lng>', 'LAT,LNG, or a place name the offline index settles ("Lviv, UA")')
    .option('--within <km>', 'with --at: the radius ruled out, in km (default: a point 1 km, a place its extent)')
    .option('--area <file>', 'a GeoJSON Polygon or MultiPolygon (bare, a Feature, or a FeatureCollection of one): the entry keeps it, the file\'s name and sha256')
    .option('--because <text>', 'why, in your words (needed)')
    .addHelpText(
      'after',
      `
One of --at and --area. The geometry is kept in the entry as GeoJSON (longitude first): a point
with its radius, or the area's polygons; the case's reports and maps draw it. A file that is not
a polygon (a point, a line, several features, a ring that does not close) is exit 2.

${SAYS}

Examples (the sandbox's answers are simulated; yours work the same way):
${SETUP}
  $ geo cases rule-out Demo --at "Lyon, FR" --because "no Haussmann blocks of that height there"
  $ geo cases rule-out Demo --at 48.8566,2.3522 --within 2 --because "the river is not in view" --json
  $ printf '{"type":"Polygon","coordinates":[[[2.2,48.8],[2.3,48.8],[2.3,48.9],[2.2,48.8]]]}' > west.geojson
  $ geo cases rule-out Demo --area west.geojson --because "the west bank has no such bridge"
  $ printf '{"type":"Point","coordinates":[2.3,48.8]}' > point.geojson
  $ geo cases rule-out Demo --area point.geojson --because x   # exit 2: not a polygon`,
    )
    .action(act(async () => (await import('./rule-out.js')).ruleOut, OFFLINE));

  cases
    .command('conclude')
    .summary('the conclusion: where, how sure and why')
    .description('the conclusion: where (a place or LAT,LNG and a radius in metres), how sure (a word) and why; a later one supersedes it, both stay in the log')
    .argument('<case>', 'the case: its id (geo\'s or the service\'s) or its name')
    .option('--at <place|lat,lng>', 'where: LAT,LNG, or a place name the offline index settles ("Kharkiv, UA")')
    .option('--within <metres>', 'the radius of its uncertainty, in metres (a number above 0)')
    .option('--confidence <word>', 'confirmed, probable or possible')
    .option('--because <text>', 'the grounds, in your words')
    .option('--result <id>', 'a result it rests on: r2 (the case\'s order), an analysis id or a sha256 prefix (repeatable)', collect)
    .addHelpText(
      'after',
      `
--at, --within, --confidence and --because are all needed. A conclusion made after another
names the one it supersedes (that entry's hash); both stay in the log, and geo cases show gives
the one in force and what it replaced. Confidence is a word, not a number: confirmed (the place
is established beyond reasonable doubt), probable (more likely than not) or possible.

${SAYS}

Examples (the sandbox's answers are simulated; yours work the same way):
${SETUP}
  $ geo cases conclude Demo --at 48.8698,2.3078 --within 150 --confidence probable \\
      --because "the facades and Metro entrance of Avenue George V" --result r1
  $ geo cases conclude Demo --at "Paris, FR" --within 5000 --confidence confirmed --because "both photos agree" --json
  $ geo cases conclude Demo --at 48.87,2.31 --within 150 --confidence probable   # exit 2: no --because
  $ geo cases conclude Demo --at 48.87,2.31 --within -5 --confidence sure --because x   # exit 2`,
    )
    .action(act(async () => (await import('./conclude.js')).conclude, OFFLINE));
}
