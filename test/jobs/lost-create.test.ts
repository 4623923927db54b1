// A lost image-to-3D create of a local file (sent as a data URI) against a server that stores the upload
// and lists it under its own hosted URL: found by its options and by comparing the pictures, never by URL.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { toDataUri } from '../../main/files/inspect-image.ts';
import { reconcileJournal } from '../../main/jobs/reconcile.ts';
import { SubmissionUnknownError } from '../../main/jobs/submit.ts';
import { realFixture } from '../fixtures.ts';
import { download } from '../engine/helpers.ts';
import { makeHarness, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const robot = () => toDataUri(realFixture('images', 'robot.png'));
const chair = () => toDataUri(realFixture('images', 'chair.png'));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function lostCreate(
  h: Harness,
  body: Record<string, unknown>,
): Promise<SubmissionUnknownError | { status: string; job?: { id: string; remoteId: string | null } }> {
  h.engine.faults.add({ kind: 'drop-response', match: { endpoint: 'createImageTo3d' } });
  try {
    return await h.submitter.submit('createImageTo3d', { body }, { label: 'robot' });
  } catch (error) {
    if (error instanceof SubmissionUnknownError) return error;
    throw error;
  }
}

describe('reconciling a lost create of a local image', () => {
  it('picks the session with the same picture and options among others made in the same minute', async () => {
    h = await makeHarness({ speed: 50 });
    // Made by another program at the same time: another picture, and the same picture with other options.
    const otherPicture = await h.client.createImageTo3d({ image_url: await chair() });
    const otherOptions = await h.client.createImageTo3d({ image_url: await robot(), texture_model: 'pbr' });
    const outcome = await lostCreate(h, { image_url: await robot() });

    const list = await h.client.listImageTo3d({ limit: 100 });
    expect(list.totalResults).toBe(3);
    for (const s of list.results) expect(s.image_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\//); // hosted, not the data URI
    const mine = list.results.find(
      (s) => s.session_code !== otherPicture.session_code && s.session_code !== otherOptions.session_code,
    )!;
    expect(outcome).toMatchObject({ status: 'reconciled', job: { remoteId: mine.session_code } });
  });

  it('recognises the picture when the server re-encodes the upload (other bytes, same picture)', async () => {
    h = await makeHarness({ speed: 50, engine: { uploadedImages: 'recompressed' } });
    const sent = await robot();
    await h.client.createImageTo3d({ image_url: await chair() });
    const outcome = await lostCreate(h, { image_url: sent });
    expect(outcome).toMatchObject({ status: 'reconciled' });
    const session = await h.client.getImageTo3d((outcome as { job: { remoteId: string } }).job.remoteId);
    const hosted = await download(session.image_url);
    expect(sha256(hosted.bytes)).not.toBe(sha256(Buffer.from(sent.slice(sent.indexOf(',') + 1), 'base64')));
  });

  it('the older create variant: a session of another model_version is not it', async () => {
    h = await makeHarness({ speed: 50 });
    const beta = await h.client.createImageTo3dLegacy({ image_url: await robot(), model_version: 'beta-2' });
    h.engine.faults.add({ kind: 'drop-response', match: { endpoint: 'createImageTo3dLegacy' } });
    const outcome = await h.submitter.submit(
      'createImageTo3dLegacy',
      { body: { image_url: await robot() } },
      { label: 'robot' },
    );
    expect(outcome.status).toBe('reconciled');
    expect(outcome.job!.remoteId).not.toBe(beta.session_code);
    expect(outcome.job!.step).toBe('spin');
  });

  it('a create that never reached the service is not attached to a session of another picture', async () => {
    h = await makeHarness({ speed: 50 });
    const other = await h.client.createImageTo3d({ image_url: await chair() });
    h.engine.faults.add({ kind: 'reset', match: { endpoint: 'createImageTo3d' } }); // cut before the engine creates anything
    const error = await h.submitter
      .submit('createImageTo3d', { body: { image_url: await robot() } }, { label: 'robot' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SubmissionUnknownError);
    const job = h.store.jobs.require((error as SubmissionUnknownError).jobId!);
    expect(job).toMatchObject({ state: 'submission_unknown', remoteId: null });
    expect(job.error).toContain(
      'no session at the service matches it (1 created around then have another input image or other options)',
    );
    expect(h.store.jobs.findByRemoteId(other.session_code)).toBeUndefined();
  });

  it('two sessions with the same picture: left to the user, with the candidates on the job, in the error and in reconcile', async () => {
    h = await makeHarness({ speed: 50 });
    const twin = await h.client.createImageTo3d({ image_url: await robot() });
    const error = await lostCreate(h, { image_url: await robot() });
    expect(error).toBeInstanceOf(SubmissionUnknownError);
    const { operationId, jobId, candidates } = error as SubmissionUnknownError;
    const codes = candidates.map((c) => c.sessionCode);
    expect(codes).toHaveLength(2);
    expect(codes).toContain(twin.session_code);
    expect(candidates.every((c) => c.match === 'same-file')).toBe(true);
    for (const c of candidates) expect((error as Error).message).toContain(`${c.sessionCode} (created ${c.createdAt}`);
    expect((error as Error).message).toContain(`asset-studio reconcile ${operationId} --session <session_code>`);

    const job = h.store.jobs.require(jobId!);
    expect(job.state).toBe('submission_unknown');
    for (const c of candidates)
      expect(job.error).toContain(
        `${c.sessionCode} (created ${c.createdAt}; its input image is byte for byte the one sent)`,
      );
    expect(job.error).toContain(`asset-studio reconcile ${operationId} --session <session_code>`);

    const deps = { store: h.store, client: h.client, tracker: h.tracker };
    const [open] = await reconcileJournal(deps, {});
    expect(open).toMatchObject({ operationId, outcome: 'ambiguous', reconciled: false, advice: job.error });
    expect(open!.candidates!.map((c) => c.sessionCode).sort()).toEqual([...codes].sort());

    const mine = codes.find((c) => c !== twin.session_code)!;
    const [picked] = await reconcileJournal(deps, { operationId, sessionCode: mine });
    expect(picked!.job).toMatchObject({ id: jobId, remoteId: mine, state: 'queued', error: null });
  });
});
