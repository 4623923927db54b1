// Paths of the real third-party fixtures in ../shared/fixtures/real/ beside the checkout (see SOURCES.md there).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REAL_FIXTURES = resolve(import.meta.dirname, '..', '..', 'shared', 'fixtures', 'real');

export function realFixture(...parts: string[]): string {
  const path = join(REAL_FIXTURES, ...parts);
  if (!existsSync(path)) {
    throw new Error(
      `Missing test fixture ${path}: the tests expect the shared/ folder (with fixtures/real/) beside the checkout.`,
    );
  }
  return path;
}

/**
 * A small rigged humanoid FBX (Kenney's character, 740 KB): what an animation upload needs. A mesh with no bones is
 * rigged by the engine when it is a humanoid standing upright, else refused (test/engine/rigging/).
 */
export function riggedCharacter(): Buffer {
  return readFileSync(realFixture('fbx', 'maya_kenney_character_7700_binary.fbx'));
}
