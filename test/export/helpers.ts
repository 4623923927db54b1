// Shared pieces of the export tests: temporary folders, minimal projects, source files, GLB checks.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Document, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { expect } from 'vitest';
import { tempDir as sharedTempDir } from '../helpers.ts';
import { buildGlb, buildObj, renderTexture } from '../../main/engine/outputs/index.ts';
import type { SourceFile } from '../../main/export/export.ts';
import type { ExportSource } from '../../main/export/manifest.ts';
import type { ExportTarget } from '../../main/export/presets.ts';
import { validator } from '../gltf-validator.ts';

export const tempDir = (): string => sharedTempDir('asset-studio-export-');

/** The smallest folder each engine's editor would open (main/export/detect.ts's markers); a plain folder for `folder`. */
export function makeProject(target: ExportTarget, root = tempDir()): string {
  mkdirSync(root, { recursive: true });
  if (target === 'unity') {
    mkdirSync(join(root, 'Assets'));
    mkdirSync(join(root, 'ProjectSettings'));
    writeFileSync(join(root, 'ProjectSettings', 'ProjectVersion.txt'), 'm_EditorVersion: 6000.0.23f1\n');
  } else if (target === 'unreal') {
    mkdirSync(join(root, 'Content'));
    writeFileSync(join(root, 'MyGame.uproject'), JSON.stringify({ FileVersion: 3, EngineAssociation: '5.4' }));
  } else if (target === 'godot') {
    writeFileSync(join(root, 'project.godot'), 'config_version=5\n[application]\nconfig/name="My Game"\n');
  }
  return root;
}

/** A Unity project's Packages/manifest.json listing glTFast, so that its exports default to GLB. */
export function withGltfast(root: string): string {
  mkdirSync(join(root, 'Packages'), { recursive: true });
  writeFileSync(
    join(root, 'Packages', 'manifest.json'),
    JSON.stringify({ dependencies: { 'com.unity.cloud.gltfast': '6.8.0', 'com.unity.ugui': '2.0.0' } }),
  );
  return root;
}

export const SOURCE: ExportSource = {
  sessionId: 'SESSION_abc123',
  jobId: 'job_1',
  kind: 'image_to_3d',
  request: { image_url: 'data:image/png;base64,AAAA', scaled_bbox: [-1, 2, -1], pivot_point: [0, -0.5, 0] },
  result: {
    session_code: 'SESSION_abc123',
    mesh_url_glb: 'https://files.example/m.glb?sig=secret&exp=1',
    session_status: 'complete',
  },
};

/** A generated textured GLB plus an OBJ/MTL/PNG set, named as the service names them, in a cache-like folder. */
export function generatedSources(): { dir: string; glb: SourceFile; obj: SourceFile[]; all: SourceFile[] } {
  const dir = tempDir();
  const write = (file: string, data: string | Uint8Array) => {
    writeFileSync(join(dir, file), data);
    return join(dir, file);
  };
  const { obj, mtl } = buildObj({ seed: 'chair', texture: true, name: 'model' });
  const glb: SourceFile = {
    kind: 'glb',
    path: write('0f3a.glb', buildGlb({ seed: 'chair', texture: true })),
    name: 'model.glb',
  };
  const objSet: SourceFile[] = [
    { kind: 'obj', path: write('1b2c', obj), name: 'model.obj' },
    { kind: 'mtl', path: write('2d3e', mtl), name: 'model.mtl' },
    { kind: 'texture', path: write('3f4a', renderTexture('chair')), name: 'model.png' },
  ];
  return { dir, glb, obj: objSet, all: [glb, ...objSet] };
}

/** The Khronos validator's errors (severity 0) for a GLB. */
export async function validatorErrors(glb: Uint8Array): Promise<string[]> {
  const report = await validator.validateBytes(glb, { maxIssues: 100, writeTimestamp: false });
  return report.issues.messages
    .filter((m) => m.severity === 0)
    .map((m) => `${m.code} ${m.pointer ?? ''}: ${m.message}`);
}

export const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);

/** A GLB, read once the Khronos validator has found no error in it. */
export async function readValidGlb(glb: Uint8Array): Promise<Document> {
  expect(await validatorErrors(glb)).toEqual([]);
  return io.readBinary(glb);
}

/** The names of a glTF document's animations (its clips), in order. */
export const clipNames = (doc: Document): string[] =>
  doc
    .getRoot()
    .listAnimations()
    .map((a) => a.getName());

export async function readGlb(path: string) {
  return io.readBinary(new Uint8Array(readFileSync(path)));
}
