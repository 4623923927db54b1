// Paths of the real third-party fixtures in ../shared/fixtures/real/ beside the checkout (see SOURCES.md there).
import { existsSync } from 'node:fs';
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
