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
  store: ['durable'],
  api: ['files'],
  config: ['store', 'durable'],
  jobs: ['api', 'store', 'images'],
  files: ['api', 'jobs'],
  cache: ['api', 'jobs', 'store', 'serve', 'durable'],
  export: ['cache', 'store', 'durable', 'formats'],
  engine: ['jobs', 'files', 'serve', 'durable', 'images', 'formats'],
  app: ['api', 'store', 'config', 'jobs', 'files', 'cache', 'export', 'engine', 'durable', 'images'],
  host: ['app', 'api', 'store', 'config', 'jobs', 'files', 'cache', 'export', 'serve', 'durable'],
  cli: ['app', 'api', 'store', 'config', 'jobs', 'files', 'cache', 'export', 'durable'],
  electron: ['app', 'host', 'config', 'store'],
};

const areas = readdirSync(MAIN, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** The relative specifiers a file imports or re-exports (static and dynamic, types included). */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
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
});
