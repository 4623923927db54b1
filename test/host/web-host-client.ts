// A test's client of a running web host, as the app's pages and the Blender add-on use it: bridge calls over
// /api/call, jobs followed to their end (and their outputs cached as the app's own download does), and files
// streamed to /api/upload.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { basename, join } from 'node:path';
import type { ServiceOptions } from '../../main/app/services.ts';
import { fetchJobOutputs } from '../../main/cache/auto-download.ts';
import type { JobExportDeps } from '../../main/export/from-job.ts';
import { startWebHost, type RunningWebHost, type WebHostOptions } from '../../main/host/web-host.ts';
import type { JobRecord } from '../../main/store/jobs.ts';
import { realFixture } from '../fixtures.ts';

/**
 * A web host for a test over the data folder `dataDir`: the embedded engine at 500 times its pace (unless
 * `serviceOptions` says otherwise), no built pages, no notice lines.
 */
export function startTestHost(
  dataDir: string,
  serviceOptions: ServiceOptions = {},
  options: Omit<WebHostOptions, 'dataDir' | 'serviceOptions'> = {},
): Promise<RunningWebHost> {
  return startWebHost({
    dataDir,
    rendererDir: join(dataDir, 'no-renderer'),
    serviceOptions: { engineSpeed: 500, ...serviceOptions },
    notice: () => undefined,
    ...options,
  });
}

/** How many times a job is looked at, 100 ms apart, before it is taken as hung (a cap, not a speed bar). */
const JOB_TRIES = 3000;

export interface WebHostClient {
  /** The bridge command's answer; throws with the status and body when it is not 200. */
  call(command: string, input: unknown): Promise<any>;
  /** The job (as jobs.get answers) once it has succeeded; throws when it fails. */
  finished(id: string): Promise<any>;
  /** The job's record once it has succeeded and its outputs are in the download cache. */
  succeeded(id: string): Promise<JobRecord>;
  /** The upload route's answer for the file at `path`, as the add-on (and a file dropped on the page) sends it. */
  upload(path: string): Promise<{ uploadId: string }>;
}

/** A client of the host `host()` returns (started in a beforeAll, after the client is made). */
export function webHostClient(host: () => RunningWebHost): WebHostClient {
  async function call(command: string, input: unknown): Promise<any> {
    const { origin, token } = host();
    const res = await fetch(`${origin}/api/call/${command}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(input),
    });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${command}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  }

  async function finished(id: string): Promise<any> {
    for (let tries = 0; ; tries++) {
      const job = await call('jobs.get', { id });
      if (job.state === 'failed') throw new Error(`job failed: ${job.error}`);
      if (job.state === 'succeeded') return job;
      if (tries > JOB_TRIES) throw new Error(`job ${id} never ended`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function succeeded(id: string): Promise<JobRecord> {
    await finished(id);
    const { cache, store, tracker, outputFormats } = host().bridge.services;
    const report = await fetchJobOutputs(cache, store, store.jobs.get(id)!, () => tracker.refresh(id), outputFormats);
    if (report.failed.length > 0) throw new Error(`outputs of ${id} not cached: ${JSON.stringify(report.failed)}`);
    return store.jobs.get(id)!;
  }

  function upload(path: string): Promise<{ uploadId: string }> {
    const { port, token } = host();
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/upload',
          headers: {
            authorization: `Bearer ${token}`,
            'x-file-name': basename(path),
            'content-length': statSync(path).size,
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(body))));
        },
      );
      req.on('error', reject);
      createReadStream(path).pipe(req);
    });
  }

  return { call, finished, succeeded, upload };
}

/** How a job made through a client is followed: `client.succeeded` (the default: outputs cached too) or `client.finished`. */
type Follow = (id: string) => Promise<JobRecord>;

/**
 * A rigged character (the real Male_Casual.fbx) uploaded to be animated ("hero to animate") and its session
 * animated with the prompts `texts` ("hero moves"), as the app's pages make them: both jobs, followed to success.
 */
export async function animatedHero(
  client: WebHostClient,
  texts: string[],
  follow: Follow = client.succeeded,
): Promise<{ session: JobRecord; prompts: JobRecord }> {
  const uploaded = await client.upload(realFixture('fbx', 'Male_Casual.fbx'));
  const upload = await client.call('create', {
    endpoint: 'uploadAnimationMesh',
    file: { uploadId: uploaded.uploadId },
    label: 'hero to animate',
  });
  const session = await follow(upload.job.id);
  const prompts = await client.call('create', {
    endpoint: 'submitTextAnimations',
    body: { session_code: session.remoteId, texts },
    label: 'hero moves',
  });
  return { session, prompts: await follow(prompts.job.id) };
}

/**
 * One job of each kind the exports and the add-on take, followed to success: the chair made from the real
 * chair.png ("chair.png"), the animated hero (animatedHero with `texts`) and the chair's retopology ("chair retopology").
 */
export async function sampleJobs(
  client: WebHostClient,
  texts: string[],
  follow: Follow = client.succeeded,
): Promise<Record<'chair' | 'animation' | 'prompts' | 'retopology', JobRecord>> {
  const image = `data:image/png;base64,${readFileSync(realFixture('images', 'chair.png')).toString('base64')}`;
  const chair = await client.call('create', {
    endpoint: 'createImageTo3d',
    body: { image_url: image, texture_model: 'baked' },
    label: 'chair.png',
  });
  const { session, prompts } = await animatedHero(client, texts, follow);
  const chairJob = await follow(chair.job.id);
  const retopology = await client.call('create', {
    endpoint: 'createRetopology',
    body: { type: 'retopology', input: { mesh: (chairJob.result as any).mesh_url_glb, model: 'swift', quads: true } },
    label: 'chair retopology',
  });
  return { chair: chairJob, animation: session, prompts, retopology: await follow(retopology.job.id) };
}

/** What exportJob and planJob need of the host's services (outputs fetched as the app fetches them). */
export function exportDeps(host: RunningWebHost): JobExportDeps {
  const { cache, store, tracker, outputFormats } = host.bridge.services;
  return { cache, store, refresh: (id: string) => tracker.refresh(id), formats: outputFormats };
}
