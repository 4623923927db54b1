import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectProject } from '../../main/export/detect.ts';
import type { GameEngine } from '../../main/export/presets.ts';
import { makeProject, tempDir } from './helpers.ts';

const SUBFOLDER: Record<GameEngine, string[]> = {
  unity: ['Assets', 'Props', 'Chairs'],
  unreal: ['Content', 'Props'],
  godot: ['scenes', 'levels'],
};

describe('detectProject', () => {
  it.each(['unity', 'unreal', 'godot'] as const)(
    'finds a %s project from its root and from a subfolder',
    async (engine) => {
      const root = realpathSync(makeProject(engine));
      // A Unity project also says which glTF package it has (none here: null).
      const unity = engine === 'unity' ? { gltfPackage: null } : {};
      expect(await detectProject(root)).toEqual({ engine, root, dir: root, ...unity });
      const sub = join(root, ...SUBFOLDER[engine]);
      mkdirSync(sub, { recursive: true });
      expect(await detectProject(sub)).toEqual({ engine, root, dir: sub, ...unity });
    },
  );

  it('needs both Unity markers', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'Assets'));
    expect((await detectProject(root)).engine).toBe('folder');
    mkdirSync(join(root, 'ProjectSettings'));
    writeFileSync(join(root, 'ProjectSettings', 'ProjectVersion.txt'), 'm_EditorVersion: 2022.3.1f1\n');
    expect((await detectProject(root)).engine).toBe('unity');
  });

  it('reports a plain folder as no game project, so the folder preset applies', async () => {
    const dir = realpathSync(tempDir());
    const project = await detectProject(dir);
    expect(project).toMatchObject({ engine: 'folder', root: dir, dir });
    expect(project.reason).toMatch(/not a game project.*Unity.*Unreal.*Godot/);
  });

  it('takes the nearest project when projects are nested', async () => {
    const outer = makeProject('unity');
    const inner = realpathSync(makeProject('godot', join(outer, 'Tools', 'GodotPort')));
    expect(await detectProject(join(inner))).toMatchObject({ engine: 'godot', root: inner });
  });

  it('with an engine given, finds that engine only, or says where it looked', async () => {
    const root = realpathSync(makeProject('unreal'));
    expect(await detectProject(join(root, 'Content'), 'unreal')).toMatchObject({ engine: 'unreal', root });
    await expect(detectProject(root, 'godot')).rejects.toMatchObject({
      code: 'not-a-project',
      message: expect.stringMatching(/project\.godot/),
    });
    expect(await detectProject(join(root, 'Content'), 'folder')).toMatchObject({
      engine: 'folder',
      root: join(root, 'Content'),
    });
  });

  it('refuses a folder holding markers of two engines', async () => {
    const root = makeProject('godot', makeProject('unity'));
    await expect(detectProject(root)).rejects.toMatchObject({ code: 'ambiguous-project' });
  });

  it('answers a folder that does not exist yet as a new plain folder, without creating it', async () => {
    const dir = realpathSync(tempDir());
    const fresh = join(dir, 'new', 'deeper');
    expect(await detectProject(fresh)).toEqual({
      engine: 'folder',
      root: fresh,
      dir: fresh,
      newFolder: true,
      reason: expect.stringMatching(/new folder \(it will be created\)/),
    });
    expect(await detectProject(fresh, 'folder')).toEqual({
      engine: 'folder',
      root: fresh,
      dir: fresh,
      newFolder: true,
    });
    expect(existsSync(join(dir, 'new'))).toBe(false);
  });

  it('finds the project a new folder would be in', async () => {
    const root = realpathSync(makeProject('unity'));
    const fresh = join(root, 'Assets', 'Props', 'Lamps');
    expect(await detectProject(fresh)).toEqual({
      engine: 'unity',
      root,
      dir: fresh,
      newFolder: true,
      gltfPackage: null,
    });
    expect(await detectProject(fresh, 'unity')).toEqual({
      engine: 'unity',
      root,
      dir: fresh,
      newFolder: true,
      gltfPackage: null,
    });
    await expect(detectProject(fresh, 'godot')).rejects.toMatchObject({ code: 'not-a-project' });
  });

  it('refuses a file, and a new folder under a file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file.txt'), '');
    await expect(detectProject(join(dir, 'file.txt'))).rejects.toMatchObject({
      code: 'not-a-project',
      why: 'is a file, not a folder',
    });
    await expect(detectProject(join(dir, 'file.txt', 'sub'))).rejects.toMatchObject({
      code: 'not-a-project',
      file: join(dir, 'file.txt'),
      why: expect.stringMatching(/is a file, so .*sub cannot be created/),
    });
  });
});
