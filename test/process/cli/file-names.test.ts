// A file whose name is not valid UTF-8 (any bytes are a name on Linux) is opened by its bytes, although
// process.argv holds the name decoded lossily.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realFixture } from '../../fixtures.ts';
import { cleanEnv, tempDataDir, type CliResult } from '../../cli/run-cli.ts';
import { shellWithCli, spawnCli as runCli } from './spawn-cli.ts';

/** `ch\xff.png`: 0xff is never valid in UTF-8. */
const BAD_NAME = Buffer.from([0x63, 0x68, 0xff, 0x2e, 0x70, 0x6e, 0x67]);
/** The same name as process.argv holds it. */
const DECODED = 'ch\uFFFD.png';

/**
 * Runs the CLI with arguments given as a shell would pass them: `$(printf ...)` puts the raw bytes on the
 * command line (the arguments of child_process.spawn are strings, always encoded as valid UTF-8).
 */
function runWithRawArgs(shellArgs: string, cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return shellWithCli(`exec "$0" "$1" ${shellArgs}`, [], { cwd, env });
}

describe.skipIf(process.platform !== 'linux')('file names that are not valid UTF-8', () => {
  it('create-3d opens the image by its bytes; batch walks a folder named so; the output shows the name as given', {
    timeout: 120_000,
  }, async () => {
    const dataDir = tempDataDir();
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
    const work = join(dataDir, 'work');
    mkdirSync(work);
    const image = Buffer.concat([Buffer.from(`${work}/`), BAD_NAME]);
    writeFileSync(image, readFileSync(realFixture('images', 'chair.png')));
    const folder = Buffer.concat([Buffer.from(`${work}/drop-`), BAD_NAME]);
    mkdirSync(folder);
    copyFileSync(realFixture('images', 'fox.jpg'), Buffer.concat([folder, Buffer.from('/fox.jpg')]));

    const created = await runWithRawArgs(`create-3d "$(printf 'ch\\377.png')" --json`, work, env);
    const batch = await runWithRawArgs(`batch "$(printf 'drop-ch\\377.png')" --json`, work, env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const job = JSON.parse(created.stdout) as { jobId: string; data: { session_code: string } };
    expect(job.data.session_code).toMatch(/^SESSION_/);
    expect(batch.code).toBe(0);
    const summary = JSON.parse(batch.stdout) as { submitted: number; items: { name: string; path: string }[] };
    expect(summary.submitted).toBe(1);
    expect(summary.items[0]!.path).toBe(`drop-${DECODED}/fox.jpg`);
    // The alias made to reach the files is never shown.
    expect(created.stdout + created.stderr + batch.stdout + batch.stderr).not.toContain('asset-studio-names-');

    const jobs = JSON.parse((await runCli(['jobs', '--json'], env)).stdout) as { label: string }[];
    expect(jobs.map((j) => j.label).sort()).toEqual([`create-3d ${DECODED}`, 'fox.jpg']);
  });

  it('a name that matches no file by its bytes either still says it does not exist', { timeout: 120_000 }, async () => {
    const dataDir = tempDataDir();
    const result = await runWithRawArgs(
      `create-3d "$(printf 'no\\377.png')"`,
      dataDir,
      cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`no\uFFFD.png does not exist`);
  });
});
