// What an export leaves in a game project gets the project's usual modes, whatever the umask: folders 0755,
// files 0644 (not the data folder's private 0700/0600: a staging folder made by mkdtemp is 0700).
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportAsset } from '../../main/export/export.ts';
import { generatedSources, makeProject, SOURCE, tempDir } from './helpers.ts';

const mode = (path: string) => statSync(path).mode & 0o777;

/** Every entry below `dir` (itself included) with its mode. */
function modes(dir: string, rel = '.'): [string, number][] {
  const out: [string, number][] = [[rel, mode(dir)]];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...modes(path, `${rel}/${e.name}`));
    else out.push([`${rel}/${e.name}`, mode(path)]);
  }
  return out;
}

describe.skipIf(process.platform === 'win32')('export: file and folder modes', () => {
  let umask: number;
  beforeEach(() => {
    umask = process.umask(0o077); // the strictest usual umask: modes must not depend on it
  });
  afterEach(() => {
    process.umask(umask);
  });

  it.each(['unity', 'godot'] as const)('makes the folders 0755 and the files 0644 in a %s project', async (engine) => {
    const root = makeProject(engine);
    const result = await exportAsset({
      projectDir: root,
      name: 'oak chair',
      files: generatedSources().all,
      source: SOURCE,
    });
    const base = join(result.targetDir, '..'); // AssetStudio/ (Unity) or asset_studio/ (Godot), made by the export
    for (const [path, m] of modes(base)) {
      const isDir = statSync(join(base, path)).isDirectory();
      expect([path, m.toString(8)]).toEqual([path, isDir ? '755' : '644']);
    }
  });

  it('keeps those modes when replacing with overwrite, a kept sub-folder included', async () => {
    const root = makeProject('unity');
    const first = await exportAsset({
      projectDir: root,
      name: 'oak chair',
      files: generatedSources().all,
      source: SOURCE,
    });
    writeFileSync(join(first.targetDir, 'OakChair.glb.meta'), 'guid: 0123\n');
    mkdirSync(join(first.targetDir, 'Materials'));
    writeFileSync(join(first.targetDir, 'Materials', 'm.mat'), 'x');
    const second = await exportAsset({
      projectDir: root,
      name: 'oak chair',
      files: generatedSources().all,
      source: SOURCE,
      overwrite: true,
    });
    expect(second.kept.sort()).toEqual(['Materials', 'OakChair.glb.meta']);
    for (const [path, m] of modes(second.targetDir)) {
      const isDir = statSync(join(second.targetDir, path)).isDirectory();
      expect([path, m.toString(8)]).toEqual([path, isDir ? '755' : '644']);
    }
  });

  it('makes a new plain folder 0755', async () => {
    const dir = join(tempDir(), 'new', 'export');
    const result = await exportAsset({
      projectDir: dir,
      name: 'oak chair',
      files: generatedSources().all,
      source: SOURCE,
    });
    expect(mode(join(dir, '..')).toString(8)).toBe('755');
    expect(mode(dir).toString(8)).toBe('755');
    expect(mode(result.targetDir).toString(8)).toBe('755');
  });
});
