// An animated character (the service's FBX clips) exported to Unity (#31 item 5): one model FBX (mesh, skin, rig,
// no take) and one `<Model>@<clip>.fbx` per clip holding only the rig and its take, whose bones are the model's
// by name (Unity's convention: the clip plays on the model's avatar) — not a full mesh per clip. Unreal keeps one
// FBX per clip as the service made them.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { characterFbx } from '../../main/engine/character/outputs.ts';
import type { ClipSource } from '../../main/export/clips.ts';
import { exportAsset, planExport } from '../../main/export/export.ts';
import { readFbxCharacter } from '../../main/formats/fbx-read.ts';
import { realFixture } from '../fixtures.ts';
import { readFbxNodes, type FbxRecord } from './fbx-nodes.ts';
import { makeProject, SOURCE, tempDir } from './helpers.ts';

const objects = (path: string) => readFbxNodes(readFileSync(path)).find((n) => n.name === 'Objects')!.children;
const named = (n: FbxRecord) => String(n.props[1]).split('\x00')[0];

describe('animated FBX clips exported to Unity', () => {
  it('are a model FBX and one rig-only <Model>@<clip>.fbx per clip on the same bones', async () => {
    const model = await readFbxCharacter(readFileSync(realFixture('fbx', 'Male_Casual.fbx')), 'Male_Casual.fbx');
    const json = Buffer.from(JSON.stringify(model));
    const dir = tempDir();
    const clips: ClipSource[] = ['walk', 'wave'].map((name, i) => {
      const path = join(dir, `${name}.fbx`);
      writeFileSync(path, characterFbx(json, [name]));
      return { id: `prompt:${i}`, name, source: 'prompt', path, format: 'fbx' };
    });
    const options = {
      projectDir: makeProject('unity'),
      name: 'hero',
      files: [{ kind: 'fbx' as const, path: clips[0]!.path }],
      clips,
      source: SOURCE,
    };
    const plan = await planExport(options);
    expect(plan.write.map((w) => w.name)).toEqual(['Hero.fbx', 'Hero@Walk.fbx', 'Hero@Wave.fbx']);
    expect(plan.note).toMatch(/<Model>@<clip>\.fbx: Unity's convention/);

    const result = await exportAsset(options);
    const [modelFile, ...clipFiles] = result.files.map((f) => f.path);
    expect(clipFiles.map((p) => basename(p))).toEqual(['Hero@Walk.fbx', 'Hero@Wave.fbx']);
    const modelObjects = objects(modelFile!);
    expect(modelObjects.filter((o) => o.name === 'Geometry')).toHaveLength(1);
    expect(modelObjects.filter((o) => o.name === 'AnimationStack')).toHaveLength(0);
    const bones = modelObjects.filter((o) => o.name === 'Model' && o.props[2] === 'LimbNode').map(named);
    expect(bones.length).toBeGreaterThan(10);
    for (const [file, take] of [
      [clipFiles[0]!, 'walk'],
      [clipFiles[1]!, 'wave'],
    ] as const) {
      const objs = objects(file);
      expect(objs.filter((o) => o.name === 'Geometry' || o.name === 'Deformer' || o.name === 'Material')).toEqual([]);
      expect(objs.filter((o) => o.name === 'AnimationStack').map(named)).toEqual([take]);
      expect(objs.filter((o) => o.name === 'Model').map(named)).toEqual(bones);
      expect(objs.filter((o) => o.name === 'AnimationCurve').length).toBeGreaterThan(10);
    }
  });
});
