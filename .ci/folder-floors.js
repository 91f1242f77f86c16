/**
 * `geo/folder-floors`: imports between the folders of src/ run one way. A folder is the first
 * path segment under src/; a file at the top of src/ (cli.ts, context.ts, errors.ts…) counts as a
 * folder of its own. Two checks on every import that crosses from one folder to another:
 *
 * - it goes down the floors (the `floors` option, top to bottom, written down in ./layers.js):
 *   never up, never sideways to another folder of the same floor. A folder no floor names is held
 *   to the second check only, until it is given a floor;
 * - it closes no circle between folders, whatever their floors: if the folder it reaches already
 *   reaches back, the two are tied together even though no file imports itself (./import-cycle.js
 *   catches that), and the shared piece belongs on a floor below both.
 *
 * The graph is ./import-cycle.js's (every kind of import, read from disk once per lint run, the
 * linted file speaking for itself through its text).
 */
import { relative } from 'node:path';
import { diskGraph, importSpecifiers, resolveSpec } from './import-cycle.js';

/** `alpha/b.ts` -> `alpha`; `cli.ts` -> `cli`. */
export function folderOf(relPath) {
  const slash = relPath.indexOf('/');
  return slash === -1 ? relPath.replace(/\.ts$/, '') : relPath.slice(0, slash);
}

const folderGraphs = new WeakMap();
/** folder -> (folder it imports -> one `file -> file` pair that does), for `srcDir` on disk. */
function folderGraph(srcDir) {
  const files = diskGraph(srcDir);
  let g = folderGraphs.get(files);
  if (g) return g;
  g = new Map();
  for (const [file, targets] of files) {
    const from = folderOf(relative(srcDir, file));
    for (const target of targets) {
      const to = folderOf(relative(srcDir, target));
      if (from === to) continue;
      if (!g.has(from)) g.set(from, new Map());
      if (!g.get(from).has(to)) g.get(from).set(to, `${relative(srcDir, file)} -> ${relative(srcDir, target)}`);
    }
  }
  folderGraphs.set(files, g);
  return g;
}

/** A path of folders from `start` back to `goal` (both included), or undefined. */
function folderPath(graph, start, goal) {
  const seen = new Set([start]);
  const queue = [[start, [start]]];
  while (queue.length) {
    const [node, path] = queue.shift();
    for (const next of graph.get(node)?.keys() ?? []) {
      if (next === goal) return [...path, goal];
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([next, [...path, next]]);
      }
    }
  }
  return undefined;
}

/** Every circle between folders of `srcDir` on disk, each once: its folders, the first repeated at the end. */
export function folderCyclesOnDisk(srcDir) {
  const graph = folderGraph(srcDir);
  const out = [];
  const covered = new Set();
  for (const from of [...graph.keys()].sort()) {
    for (const to of [...graph.get(from).keys()].sort()) {
      const back = folderPath(graph, to, from);
      if (!back) continue;
      const circle = [from, ...back];
      const key = [...new Set(circle)].sort().join(',');
      if (!covered.has(key)) {
        covered.add(key);
        out.push(circle);
      }
    }
  }
  return out;
}

const floorIndex = (floors) => new Map((floors ?? []).flatMap((floor, i) => floor.map((f) => [f, i])));

/** How an import from folder `from` to folder `to` breaks the floors ('below', 'on the same floor as'), or undefined. */
function wrongWay(floorOf, from, to) {
  if (from === to || !floorOf.has(from) || !floorOf.has(to)) return undefined;
  const [a, b] = [floorOf.get(from), floorOf.get(to)];
  return b < a ? 'below' : b === a ? 'on the same floor as' : undefined;
}

/** Every import of `srcDir` on disk that runs up or sideways between folders: `file -> file`. */
export function importsUpOnDisk(srcDir, floors) {
  const floorOf = floorIndex(floors);
  const out = [];
  for (const [file, targets] of diskGraph(srcDir)) {
    for (const target of targets) {
      const [a, b] = [relative(srcDir, file), relative(srcDir, target)];
      if (wrongWay(floorOf, folderOf(a), folderOf(b))) out.push(`${a} -> ${b}`);
    }
  }
  return out;
}

export const folderFloorsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports between folders of src/ run down the floors of DESIGN.md "Layers" and close no circle between folders.' },
    schema: [{ type: 'object', properties: { floors: { type: 'array', items: { type: 'array', items: { type: 'string' } } } }, additionalProperties: false }],
    messages: {
      up: '{{from}}/ sits {{where}} {{to}}/ (.ci/layers.js FLOORS): imports between folders run down only. Move what {{from}}/ needs of {{to}}/ down to {{from}}/ or below.',
      circle: 'Folder circle: {{path}} ({{pairs}}). Move what both need below both folders.',
    },
  },
  create(context) {
    const file = context.filename;
    if (!file.includes('/src/') || !file.endsWith('.ts')) return {};
    const srcDir = file.slice(0, file.lastIndexOf('/src/') + 5);
    const floorOf = floorIndex(context.options[0]?.floors);
    const from = folderOf(relative(srcDir, file));
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = resolveSpec(file, spec);
      if (!target || !target.startsWith(srcDir)) return;
      const to = folderOf(relative(srcDir, target));
      if (to === from) return;
      const where = wrongWay(floorOf, from, to);
      if (where) context.report({ node, messageId: 'up', data: { from, to, where } });
      const graph = folderGraph(srcDir);
      const back = folderPath(graph, to, from);
      if (back) {
        const circle = [from, ...back];
        const pairs = [`${relative(srcDir, file)} -> ${relative(srcDir, target)}`, ...back.slice(1).map((f, i) => graph.get(back[i]).get(f))];
        context.report({ node, messageId: 'circle', data: { path: circle.join(' -> '), pairs: pairs.join('; ') } });
      }
    };
    return importSpecifiers(check);
  },
};
