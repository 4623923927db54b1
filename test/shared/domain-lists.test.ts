// One place for each domain list: the export targets, up axes, pivots, output formats and settings limits
// are written once in shared/ and imported by main, the bridge contract and the screens. A copy written
// out again anywhere else is found here by its text.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

const FILES = ['main', 'shared', 'renderer/src'].flatMap(sources);

/** Each list as it is written in its home, and that home. */
const LISTS: [string, RegExp, string][] = [
  ['export targets', /'unity',\s*'unreal',\s*'godot',\s*'folder'/, 'shared/export-options.ts'],
  ['up axes', /'y-to-z',\s*'z-to-y'/, 'shared/export-options.ts'],
  ['pivots', /'bottom-center',\s*'center'/, 'shared/export-options.ts'],
  ['smallest cache size', /100 \* 2 \*\* 20/, 'shared/setting-fields.ts'],
  ['output formats', /'glb',\s*'obj',\s*'fbx',\s*'usdz',\s*'zip',\s*'image',\s*'mp4'/, 'shared/output-kind.ts'],
];

describe('domain lists', () => {
  for (const [what, text, home] of LISTS) {
    it(`writes the ${what} in ${home} only`, () => {
      expect(FILES.filter((f) => text.test(readFileSync(join(ROOT, f), 'utf8')))).toEqual([home]);
    });
  }
});
