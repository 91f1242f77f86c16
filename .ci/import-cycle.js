/**
 * `geo/no-import-cycle`: no file in src/ may reach itself through its imports (issue 29). Every
 * kind of import counts: static, type-only, re-exports and `import()`, because a type-only or lazy
 * import that closes a circle still ties the two files' meanings together; the fix is to move the
 * shared type or function into a module both import.
 *
 * The graph of src/ is read from disk once per lint run (relative specifiers only: packages and
 * node: modules cannot point back into src/); the file being linted contributes the imports of
 * the text being linted, so an editor (or ESLint's lintText in the tests) sees a circle its
 * change would close before the file is saved.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SPEC = /(?:^|[^\w$.])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** The .ts file a relative specifier names (`./x.js` is `./x.ts` in the sources), or undefined. */
export function resolveSpec(fromFile, spec) {
  const base = resolve(dirname(fromFile), spec);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts'), base]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function importsOfText(file, text) {
  const out = new Set();
  for (const m of text.matchAll(SPEC)) {
    const target = resolveSpec(file, m[1] ?? m[2]);
    if (target) out.add(target);
  }
  return out;
}

const graphs = new Map();
/** file -> the files it imports, for every .ts file under `srcDir` as it is on disk. */
export function diskGraph(srcDir) {
  let g = graphs.get(srcDir);
  if (g) return g;
  g = new Map();
  for (const rel of readdirSync(srcDir, { recursive: true })) {
    if (!String(rel).endsWith('.ts')) continue;
    const file = join(srcDir, String(rel));
    g.set(file, importsOfText(file, readFileSync(file, 'utf8')));
  }
  graphs.set(srcDir, g);
  return g;
}

/** A path of imports from `start` back to `goal` (both included), or undefined. */
function pathBack(graph, start, goal) {
  const seen = new Set([start]);
  const stack = [[start, [start]]];
  while (stack.length) {
    const [node, path] = stack.pop();
    for (const next of graph.get(node) ?? []) {
      if (next === goal) return [...path, goal];
      if (!seen.has(next)) {
        seen.add(next);
        stack.push([next, [...path, next]]);
      }
    }
  }
  return undefined;
}

/** Every circle in `srcDir` as it is on disk: one path (first file repeated at the end) per file that reaches itself. */
export function cyclesOnDisk(srcDir) {
  const graph = diskGraph(srcDir);
  const out = [];
  for (const file of graph.keys()) {
    for (const target of graph.get(file)) {
      const back = target === file ? [file] : pathBack(graph, target, file);
      if (back) out.push([file, ...back].map((f) => relative(srcDir, f)));
    }
  }
  return out;
}

export const importCycleRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid circles of imports between files of src/ (DESIGN.md "Layers").' },
    schema: [],
    messages: { cycle: 'Import circle: {{path}}. Move what both need into a module both import (issue 29).' },
  },
  create(context) {
    const file = context.filename;
    const srcDir = file.slice(0, file.lastIndexOf('/src/') + 5);
    if (!file.includes('/src/') || !file.endsWith('.ts')) return {};
    const graph = diskGraph(srcDir);
    // The search stops where it reaches this file, so its imports on disk never enter it: only the
    // text being linted speaks for this file.
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = resolveSpec(file, spec);
      if (!target || target === file) return;
      const back = pathBack(graph, target, file);
      if (back) context.report({ node, messageId: 'cycle', data: { path: [file, ...back].map((f) => relative(srcDir, f)).join(' -> ') } });
    };
    return importSpecifiers(check);
  },
};

/** The visitors that hand `check(node, specifier)` every import of a file: static, type-only, re-exports, import() and import types. */
export function importSpecifiers(check) {
  return {
    ImportDeclaration: (node) => check(node, node.source.value),
    ExportAllDeclaration: (node) => check(node, node.source.value),
    ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
    ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    TSImportType: (node) => {
      // typescript-eslint 8.x names the specifier `source`; older releases `argument.literal`.
      const arg = 'source' in node ? node.source : (node.argument?.literal ?? node.argument);
      if (arg?.type === 'Literal') check(node, arg.value);
    },
  };
}
