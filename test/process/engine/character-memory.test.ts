// Issue #33 item 3: the engine's memory goes back after a character job. A 1.6 MB upload hiding an FBX bomb behind a
// property the check did not follow took the engine's process to 3.3 GB, kept after the job. An engine in a child
// process is sent a real character with such a bomb added (a `Z` property before an array declaring 100 million
// doubles, 800 MB inflated): it is refused at upload; then three real characters are read to the end, each on a
// worker that ends after it (main/work/pool.ts `recycle`). The process's resident memory afterwards stays within a
// generous bound of what it had before (a bound on behaviour, read from /proc, not a timing).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import {
  animationReady,
  expectSuccess,
  KEY,
  makeDataDir,
  uploadAnimationFile,
  type TestEngine,
} from '../../engine/helpers.ts';
import { fbxArray, fbxProp } from '../../engine/bombs.ts';
import { realFixture } from '../../fixtures.ts';

const MiB = 2 ** 20;
const MALE = readFileSync(realFixture('fbx', 'Male_Casual.fbx'));

/** Resident memory of a process, bytes (Linux). */
const residentBytes = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** A binary FBX 7.4 with one more top-level node (before the null record ending the list) holding `props`. */
function withNode(fbx: Buffer, name: string, props: Buffer[]): Buffer {
  let pos = 27;
  while (fbx.readUInt32LE(pos) !== 0) pos = fbx.readUInt32LE(pos);
  const nameBytes = Buffer.from(name, 'latin1');
  const body = Buffer.concat(props);
  const head = Buffer.alloc(13);
  head.writeUInt32LE(pos + 13 + nameBytes.length + body.length, 0);
  head.writeUInt32LE(props.length, 4);
  head.writeUInt32LE(body.length, 8);
  head[12] = nameBytes.length;
  return Buffer.concat([fbx.subarray(0, pos), head, nameBytes, body, fbx.subarray(pos)]);
}

it.runIf(process.platform === 'linux')(
  "refuses a character hiding an FBX bomb, and the engine's memory goes back after its character jobs",
  async () => {
    const dataDir = await makeDataDir();
    const child = spawn(
      process.execPath,
      [
        fileURLToPath(new URL('../../../main/engine/run.ts', import.meta.url)),
        '--data-dir',
        dataDir,
        '--speed',
        '1000',
      ],
      { env: { ...process.env, ASSET_STUDIO_API_KEY: KEY }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
      const engine = { url: (JSON.parse(first.value as string) as { url: string }).url } as TestEngine;
      const before = residentBytes(child.pid!);

      const bomb = withNode(MALE, 'Vertices', [fbxProp('Z', Buffer.from([1])), fbxArray('d', 100_000_000)]);
      expect(bomb.length).toBeLessThan(MALE.length + 4096);
      const refused = await uploadAnimationFile(engine, bomb, 'hero.fbx');
      expect(refused.status).toBe(400);
      expect((refused.body as { message: string }).message).toContain(
        'declares an array of 100000000 elements (762.9 MiB) in its node "Vertices", more than the 256 MiB',
      );

      for (let i = 0; i < 3; i++) {
        const up = expectSuccess('uploadAnimationMesh', await uploadAnimationFile(engine, MALE, 'Male_Casual.fbx'));
        expect((await animationReady(engine, up.session_code, 240_000)).status).toBe('predefined_done');
      }
      const grown = residentBytes(child.pid!) - before;
      // Measured: about 200-250 MiB after three characters read on workers that end after each, about 300 MiB and
      // growing with every job when the worker was kept (bench/character-memory.ts), GBs with the bomb read. The
      // bound alone does not tell the two apart (what fails before is the bomb, accepted and read): it catches
      // memory kept per job, or a bomb read.
      expect(grown, `grew by ${Math.round(grown / MiB)} MiB`).toBeLessThan(384 * MiB);
    } finally {
      // Its folder is removed once the engine has exited (it writes its database and files until then).
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  },
  600_000,
);
