// Issue #33 item 3: an FBX the loader rejects puts the whole upload into its error message (Babylon's "Unable to
// load from data:;base64,…"): a 26 MB ASCII FBX gave a 72 MB record, the session could no longer be read and its
// job stayed "running". The session's error quotes at most a few hundred characters of the input, and it ends failed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_ERROR_CHARS } from '../../main/engine/sessions/error-text.ts';
import {
  animationReady,
  animationSession,
  expectSuccess,
  startTestEngine,
  type TestEngine,
  uploadAnimationFile,
} from './helpers.ts';

const BONES = [
  'Hips',
  'Spine',
  'Spine1',
  'Neck',
  'Head',
  'LeftShoulder',
  'LeftArm',
  'LeftForeArm',
  'LeftHand',
  'RightShoulder',
  'RightArm',
  'RightForeArm',
  'RightHand',
  'LeftUpLeg',
  'LeftLeg',
  'LeftFoot',
  'RightUpLeg',
  'RightLeg',
  'RightFoot',
];

/**
 * An ASCII FBX whose objects name a skinned humanoid (what the upload's judge reads from its text) and whose end
 * the loader rejects, padded to `padBytes`.
 */
function brokenAsciiCharacter(padBytes: number): Buffer {
  const lines = [
    '; FBX 7.5.0 project file',
    'FBXHeaderExtension:  {',
    '\tFBXHeaderVersion: 1003',
    '\tFBXVersion: 7500',
    '}',
    'Objects:  {',
    '\tGeometry: 1, "Geometry::Body", "Mesh" {',
    '\t}',
    ...BONES.flatMap((name, i) => [`\tModel: ${100 + i}, "Model::${name}", "LimbNode" {`, '\t}']),
    '\tDeformer: 2, "SubDeformer::Hips", "Cluster" {',
    '\t}',
    '}',
    `Broken: { { ${'x'.repeat(padBytes)}`,
  ];
  return Buffer.from(lines.join('\n'));
}

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine?.dispose());

it('an ASCII FBX the loader rejects ends its session failed, its error quoting a few hundred characters of it', async () => {
  const upload = brokenAsciiCharacter(4 * 2 ** 20);
  const created = expectSuccess('uploadAnimationMesh', await uploadAnimationFile(engine, upload, 'hero.fbx'));
  const done = await animationReady(engine, created.session_code, 120_000);
  expect(done.status).toBe('init_failed');
  expect(done.error).toMatch(
    /^The uploaded mesh could not be read as an FBX file \(Unable to load from the file given/,
  );
  expect(done.error).toContain("Expected identifier for node name, got '{'");
  expect(done.error.length).toBeLessThanOrEqual(MAX_ERROR_CHARS + 100);
  // the record stays small: read again, whole
  const again = await animationSession(engine, created.session_code);
  expect(JSON.stringify(again).length).toBeLessThan(20_000);
  expect(again.status).toBe('init_failed');
}, 180_000);
