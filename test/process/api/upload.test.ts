// Uploads of local FBX/zip files to the real embedded engine: streamed multipart with progress, through
// the submission journal, cancellation, and flat memory for a 1 GiB file (measured in a child process).
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelledError, RequestValidationError } from '../../../main/api/errors.ts';
import { sha256File } from '../../../main/files/inspect.ts';
import type { UploadProgress } from '../../../main/api/upload.ts';
import { KEY } from '../../engine/helpers.ts';
import { realFixture } from '../../fixtures.ts';
import { makeHarness, type Harness } from '../../jobs/harness.ts';
import { sparseFbx, UPLOAD_CHILD, type ChildReport } from '../../files/helpers.ts';
import { buildZip } from '../../../main/engine/outputs/index.ts';

const GiB = 2 ** 30;
let h: Harness;
const dir = mkdtempSync(join(tmpdir(), 'asset-studio-upload-'));

beforeAll(async () => {
  h = await makeHarness();
});
afterAll(async () => {
  await h.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('upload of a local file', () => {
  it('streams a real FBX with progress up to its size, journaled with its hash, and the engine gets the same bytes', async () => {
    const path = realFixture('fbx', 'Male_Casual.fbx');
    const bytes = readFileSync(path);
    const fileHash = await sha256File(path);
    const progress: UploadProgress[] = [];
    const outcome = await h.submitter.submit(
      'uploadAnimationMesh',
      { file: path, onUploadProgress: (p) => progress.push(p) },
      { label: 'Male_Casual.fbx', fileHash },
    );

    expect(progress[0]).toEqual({ sent: 0, total: bytes.length });
    expect(progress.at(-1)).toEqual({ sent: bytes.length, total: bytes.length });
    expect(progress.every((p, i) => i === 0 || p.sent > progress[i - 1]!.sent)).toBe(true);

    if (outcome.status !== 'created') throw new Error(`unexpected outcome ${outcome.status}`);
    const data = outcome.data as { session_code: string; mesh_url: string };
    expect(outcome.job).toMatchObject({
      kind: 'animation_session',
      remoteId: data.session_code,
      label: 'Male_Casual.fbx',
    });
    expect(h.store.journal.get(outcome.operationId)).toMatchObject({
      state: 'answered',
      filePath: path,
      fileHash,
      remoteId: data.session_code,
    });
    expect(fileHash).toBe(createHash('sha256').update(bytes).digest('hex'));

    const session = await h.client.getAnimation(data.session_code);
    expect(session.session_code).toBe(data.session_code);
    const stored = Buffer.from(await (await fetch(data.mesh_url)).arrayBuffer());
    expect(stored.equals(bytes)).toBe(true);
  });

  it('sends every byte intact across many chunks', async () => {
    const path = join(dir, 'random.fbx');
    const bytes = Buffer.concat([
      readFileSync(realFixture('fbx', 'Male_Casual.fbx')),
      randomBytes(9 * 2 ** 20 + 12_345),
    ]);
    writeFileSync(path, bytes);
    const { session_code, mesh_url } = await h.client.uploadAnimationMesh({ file: path });
    expect(session_code).toMatch(/^SESSION_/);
    expect(Buffer.from(await (await fetch(mesh_url)).arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('fails cleanly when the file gets shorter while it is sent', async () => {
    const path = join(dir, 'shrinking.fbx');
    await sparseFbx(path, 64 * 2 ** 20);
    const error = await h.submitter
      .submit(
        'uploadAnimationMesh',
        { file: path, onUploadProgress: (p) => p.sent > 2 ** 20 && truncateSync(path, 2 ** 21) },
        { label: 'shrinking.fbx' },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain('could not be read while it was sent');
    expect((error as Error).message).toContain('became shorter while it was being sent');
    expect(h.store.journal.list(1)[0]).toMatchObject({ filePath: path, state: 'rejected' });
  });

  it('uploads a zip of a real character; a real zip of static props is refused by the engine', async () => {
    const zip = join(dir, 'kenney.zip');
    writeFileSync(
      zip,
      buildZip([
        {
          name: 'kenney/character.fbx',
          data: readFileSync(realFixture('fbx', 'maya_kenney_character_7700_binary.fbx')),
        },
      ]),
    );
    const outcome = await h.submitter.submit('uploadAnimationMesh', { file: zip }, { label: 'kenney' });
    expect(outcome.job?.kind).toBe('animation_session');
    const refused = await h.submitter
      .submit('uploadAnimationMesh', { file: realFixture('zip', 'Platformer Kit (1.0).zip') }, { label: 'kit' })
      .catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/static props/);
  });

  it('does not send a file that cannot be read, and journals the request as rejected', async () => {
    const path = join(dir, 'missing.fbx');
    const error = await h.submitter
      .submit('uploadAnimationMesh', { file: path }, { label: 'missing' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain(`file: cannot be read (ENOENT): ${path}`);
    expect(h.store.journal.list(1)[0]).toMatchObject({ filePath: path, state: 'rejected', jobId: null });
  });

  it('cancels mid-upload: CancelledError, nothing created, the journal entry closed as not sent', async () => {
    const path = join(dir, 'big.fbx');
    await sparseFbx(path, GiB);
    const controller = new AbortController();
    let last: UploadProgress | undefined;
    const jobsBefore = h.store.jobs.count();
    const error = await h.submitter
      .submit(
        'uploadAnimationMesh',
        {
          file: path,
          signal: controller.signal,
          onUploadProgress: (p) => {
            last = p;
            if (p.sent >= 64 * 2 ** 20) controller.abort();
          },
        },
        { label: 'big.fbx' },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).unsent).toBe(true);
    expect(last!.sent).toBeLessThan(GiB);
    const entry = h.store.journal.list(1)[0]!;
    expect(entry).toMatchObject({ filePath: path, state: 'rejected', jobId: null, remoteId: null });
    expect(entry.state).not.toBe('answered');
    expect(h.store.jobs.count()).toBe(jobsBefore);
    expect(h.store.journal.listUnresolved()).toEqual([]);
  });

  it('keeps memory flat: a 1 GiB upload in a child process adds less than 64 MB to its peak', {
    timeout: 180_000,
  }, async () => {
    const path = join(dir, 'huge.fbx');
    await sparseFbx(path, GiB);
    const { stdout } = await promisify(execFile)(process.execPath, [UPLOAD_CHILD, h.engine.url, KEY, path], {
      timeout: 170_000,
    });
    const report = JSON.parse(stdout) as ChildReport;
    const added = report.maxRssBytes - report.baseRssBytes;
    console.log(
      `1 GiB upload in a child process: ${(report.maxRssBytes / 2 ** 20).toFixed(1)} MB peak RSS (${(report.baseRssBytes / 2 ** 20).toFixed(1)} MB before the upload), ${(GiB / 2 ** 20 / report.seconds).toFixed(0)} MiB/s`,
    );
    expect(report.sent).toBe(GiB);
    // The whole GiB was sent; the local engine then refuses an FBX over what it reads (128 MiB, issue #33 item 3).
    expect(report.sessionCode).toBeNull();
    expect(report.refused).toContain('more than the 128 MiB the local engine reads of an FBX');
    // What the upload itself holds, whatever the runtime and modules take (about 110 MB of Node 24 here): it
    // does not grow with the file's size. The absolute peak is in bench/RESULTS.md (bench/transfer-upload.ts).
    expect(added).toBeLessThan(64 * 2 ** 20);
    rmSync(path);
  });
});
