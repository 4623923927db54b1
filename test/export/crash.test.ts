import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { buildGlb, renderTexture } from '../../main/engine/outputs/index.ts';
import { exportAsset } from '../../main/export/export.ts';
import { makeProject, SOURCE, tempDir } from './helpers.ts';

const EXPORTER = fileURLToPath(new URL('./fixtures/crash-exporter.ts', import.meta.url));

it('leaves no target folder when the exporting process is killed mid-export, and the next export cleans up', async () => {
  const root = makeProject('unity');
  const cache = tempDir();
  const glb = join(cache, 'mesh.glb');
  const png = join(cache, 'albedo');
  writeFileSync(glb, buildGlb({ seed: 'crash', texture: true }));
  writeFileSync(png, renderTexture('crash'));

  const child = spawn(process.execPath, [EXPORTER, root, glb, png], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');
  let stdout = '';
  for await (const chunk of child.stdout) {
    stdout += String(chunk);
    if (stdout.includes('staged')) break;
  }
  expect(stdout, stderr).toContain('staged');
  child.kill('SIGKILL');
  expect(await exited).toEqual([null, 'SIGKILL']);

  const parent = join(root, 'Assets', 'AssetStudio');
  const left = readdirSync(parent);
  expect(left).toEqual([expect.stringMatching(new RegExp(`^\\.assetstudio-staging-${child.pid}-`))]);
  expect(readdirSync(join(parent, left[0]!))).toEqual(['Crashy.glb']); // the export had begun staging

  const result = await exportAsset({ projectDir: root, name: 'Crashy', files: [{ kind: 'glb', path: glb }], source: SOURCE });
  expect(readdirSync(parent)).toEqual(['Crashy']);
  expect(readdirSync(result.targetDir).sort()).toEqual(['Crashy.assetstudio.json', 'Crashy.glb']);
});
