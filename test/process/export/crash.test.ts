import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { buildGlb, renderTexture } from '../../../main/engine/outputs/index.ts';
import { exportAsset } from '../../../main/export/export.ts';
import { killAtMarker } from '../kill-at-marker.ts';
import { makeProject, SOURCE, tempDir } from '../../export/helpers.ts';

const EXPORTER = fileURLToPath(new URL('../../export/fixtures/crash-exporter.ts', import.meta.url));

it('leaves no target folder when the exporting process is killed mid-export, and the next export cleans up', async () => {
  const root = makeProject('unity');
  const cache = tempDir();
  const glb = join(cache, 'mesh.glb');
  const png = join(cache, 'albedo');
  writeFileSync(glb, buildGlb({ seed: 'crash', texture: true }));
  writeFileSync(png, renderTexture('crash'));

  const ended = await killAtMarker(EXPORTER, [root, glb, png], 'staged');
  expect([ended.code, ended.signal]).toEqual([null, 'SIGKILL']);

  const parent = join(root, 'Assets', 'AssetStudio');
  const left = readdirSync(parent);
  expect(left).toEqual([expect.stringMatching(new RegExp(`^\\.assetstudio-staging-${ended.pid}-`))]);
  expect(readdirSync(join(parent, left[0]!))).toEqual(['Crashy.glb']); // the export had begun staging

  const result = await exportAsset({
    projectDir: root,
    name: 'Crashy',
    files: [{ kind: 'glb', path: glb }],
    source: SOURCE,
  });
  expect(readdirSync(parent)).toEqual(['Crashy']);
  expect(readdirSync(result.targetDir).sort()).toEqual(['Crashy.assetstudio.json', 'Crashy.glb']);
});
