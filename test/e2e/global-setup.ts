// Once per run of the e2e tier: the renderer is built into a temporary folder that every e2e file's web host
// serves (a build takes seconds; each file used to make its own). Removed when the run ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildRenderer } from '../../renderer/build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of the renderer built for this run. */
    rendererDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const root = mkdtempSync(join(tmpdir(), 'asset-studio-e2e-renderer-'));
  const { outDir } = await buildRenderer({ outDir: join(root, 'renderer'), minify: true });
  project.provide('rendererDir', outDir);
  return () => rmSync(root, { recursive: true, force: true });
}
