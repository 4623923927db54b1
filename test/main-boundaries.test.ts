// The areas of main/ and what each may import (the README.md of each folder says the same in words),
// read from the source files: an import of another area that is not in its line below fails, and so does
// a folder of main/ without a line here or without a README. shared/, renderer/ and electron are checked
// by Biome (npm run lint).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const MAIN = resolve(import.meta.dirname, '..', 'main');

/** Each area of main/ and the other areas it may import (every area may import shared/). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  durable: [],
  serve: [],
  images: [],
  formats: [],
  files: [],
  work: [],
  mesh: ['formats', 'images', 'work'],
  fit: ['work'],
  store: ['durable'],
  api: [],
  config: ['store', 'durable'],
  jobs: ['api', 'store', 'images', 'formats'],
  cache: ['api', 'jobs', 'store', 'serve', 'durable'],
  gameready: ['work'],
  export: ['cache', 'store', 'durable', 'formats', 'gameready'],
  // The embedded engine is a package of its own: it imports only the layer below both it and the app.
  engine: ['files', 'serve', 'durable', 'images', 'formats', 'mesh', 'work'],
  app: ['api', 'store', 'config', 'jobs', 'files', 'cache', 'export', 'engine', 'durable', 'mesh', 'fit'],
  // host/ and cli/ reach the tracker and the journal (cli/ the cache too) only through the use cases of app/.
  host: ['app', 'api', 'store', 'config', 'files', 'cache', 'export', 'serve', 'durable'],
  cli: ['app', 'api', 'store', 'config', 'files', 'export', 'durable'],
  electron: ['app', 'host', 'config', 'store'],
};

/** The one file of main/engine/ that code outside it may import. */
const ENGINE_ENTRY = join(MAIN, 'engine', 'index.ts');
/** Production code outside main/ that imports from main/ (tests and benches exercise the engine's insides). */
const OUTSIDE_MAIN = ['scripts', 'bin', 'shared', 'renderer'].map((d) => resolve(MAIN, '..', d));

const areas = readdirSync(MAIN, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

function sourceFiles(folder: string, names = /\.tsx?$/): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter(
      (e) => e.isFile() && names.test(e.name) && !e.name.endsWith('.d.ts') && !e.parentPath.includes('node_modules'),
    )
    .map((e) => join(e.parentPath, e.name));
}

/** The relative specifiers a file imports or re-exports (static and dynamic, types included). */
function relativeImports(file: string): string[] {
  return specifiersIn(readFileSync(file, 'utf8'));
}

/** The relative specifiers a file loads when it runs: its imports without `import type` / `export type` lines
 *  and `typeof import(…)` types, which TypeScript erases. */
function runtimeImports(file: string): string[] {
  return specifiersIn(
    readFileSync(file, 'utf8')
      .replace(/^\s*(?:import|export)\s+type\s[^;]*;/gm, '')
      .replace(/typeof import\(\s*'[^']*'\s*\)/g, ''),
  );
}

function specifiersIn(text: string): string[] {
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\s[^'";]*?\bfrom\s+'(\.[^']*)'/gm),
    ...text.matchAll(/^\s*import\s+'(\.[^']*)'/gm),
    ...text.matchAll(/\bimport\(\s*'(\.[^']*)'\s*\)/g),
  ];
  return specs.map((m) => m[1]!);
}

/** The area of main/ a path is in, or undefined outside main/. */
function areaOf(path: string): string | undefined {
  const rel = relative(MAIN, path);
  return rel.startsWith('..') || !rel.includes(sep) ? undefined : rel.split(sep)[0];
}

describe('main/ areas', () => {
  it('every folder of main/ has a line in the table and a README.md', () => {
    expect([...areas].sort()).toEqual(Object.keys(MAY_IMPORT).sort());
    expect(areas.filter((a) => !existsSync(join(MAIN, a, 'README.md')))).toEqual([]);
  });

  it('each area imports only the areas its line names', () => {
    const wrong: string[] = [];
    for (const area of areas) {
      for (const file of sourceFiles(join(MAIN, area))) {
        for (const spec of relativeImports(file)) {
          const target = areaOf(resolve(dirname(file), spec));
          if (target && target !== area && !MAY_IMPORT[area]?.includes(target))
            wrong.push(`${relative(MAIN, file)} → ${spec}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("the areas' table has no cycle (an area never reaches itself through others)", () => {
    const cycles: string[] = [];
    const visit = (area: string, path: string[]): void => {
      for (const next of MAY_IMPORT[area] ?? []) {
        if (next === path[0]) cycles.push([...path, next].join(' → '));
        else if (!path.includes(next)) visit(next, [...path, next]);
      }
    };
    for (const area of Object.keys(MAY_IMPORT)) visit(area, [area]);
    expect(cycles).toEqual([]);
  });

  it('no module of the project reaches itself through the imports that load when it runs (no import cycles)', () => {
    // main/, shared/, renderer/, and the launcher's and the build's scripts (bin/ ↔ scripts/ too).
    const root = resolve(MAIN, '..');
    const files = ['main', 'shared', 'renderer', 'scripts', 'bin'].flatMap((d) =>
      sourceFiles(join(root, d), /\.[cm]?[jt]sx?$/),
    );
    const known = new Set(files);
    const edges = new Map<string, string[]>();
    for (const file of files) {
      edges.set(
        file,
        runtimeImports(file)
          .map((spec) => resolve(dirname(file), spec))
          .filter((target) => known.has(target)),
      );
    }
    const cycles = findCycles(edges).map((cycle) => cycle.map((f) => relative(root, f)).join(' → '));
    expect(cycles).toEqual([]);
  });

  it('outside main/engine/, code imports the engine only through its entry (main/engine/index.ts)', () => {
    const wrong: string[] = [];
    const engine = join(MAIN, 'engine') + sep;
    const files = [
      ...sourceFiles(MAIN).filter((f) => !f.startsWith(engine)),
      ...OUTSIDE_MAIN.filter((d) => existsSync(d)).flatMap((d) => sourceFiles(d)),
    ];
    for (const file of files) {
      for (const spec of relativeImports(file)) {
        const target = resolve(dirname(file), spec);
        if (target.startsWith(engine) && target !== ENGINE_ENTRY) wrong.push(`${relative(MAIN, file)} → ${spec}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the checks above can fail', () => {
    const cyclic = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(cyclic)).toEqual([['a', 'b', 'c', 'a']]);
    expect(areaOf(join(MAIN, 'engine', 'engine.ts'))).toBe('engine');
    expect(relativeImports(join(MAIN, 'app', 'services.ts'))).toContain('../engine/index.ts');
  });
});

/** The import cycles of a graph, each once, as the path from its first node back to it (Tarjan's components). */
function findCycles(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const connect = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfLoop = (edges.get(node) ?? []).includes(node);
    if (component.length > 1 || selfLoop) cycles.push(pathThrough(component.reverse(), edges));
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return cycles;
}

/** One cycle through the first member of a strongly connected component, as a path of nodes. */
function pathThrough(component: string[], edges: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of edges.get(node) ?? []) {
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (members.has(to) && !previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [...component, start];
}
