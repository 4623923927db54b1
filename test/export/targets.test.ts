// Each export target is one module (main/export/targets/): every target of shared/export-options.ts has one, and
// the export's presets, project markers and game-ready writing come from it, so that a new engine is one file.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectProject } from '../../main/export/detect.ts';
import { PRESETS } from '../../main/export/presets.ts';
import { TARGETS } from '../../main/export/targets/index.ts';
import { EXPORT_TARGETS } from '../../shared/export-options.ts';
import { makeProject } from './helpers.ts';

describe('export target modules', () => {
  it('one file per target, each the source of its preset', () => {
    const files = readdirSync(join(import.meta.dirname, '..', '..', 'main', 'export', 'targets'))
      .filter((f) => f !== 'index.ts' && f !== 'target.ts')
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(files).toEqual([...EXPORT_TARGETS].sort());
    for (const t of EXPORT_TARGETS) {
      expect(TARGETS[t].preset.engine).toBe(t);
      expect(PRESETS[t]).toBe(TARGETS[t].preset);
    }
  });

  it("recognises each game engine's project by its module's markers, and a plain folder by none", async () => {
    for (const t of EXPORT_TARGETS) {
      expect(TARGETS[t].markers === undefined, t).toBe(t === 'folder');
      expect((await detectProject(makeProject(t))).engine).toBe(t);
    }
  });

  it('says how each engine takes LODs and clips', () => {
    expect(Object.fromEntries(EXPORT_TARGETS.map((t) => [t, [TARGETS[t].lods, TARGETS[t].fbxClips]]))).toEqual({
      unity: ['fbx-lod-names', 'model-and-at-clips'],
      unreal: ['fbx-lod-group', 'one-per-clip'],
      godot: ['engine-makes', 'one-per-clip'],
      folder: ['msft-lod', 'one-per-clip'],
    });
  });
});
