// A test's client of a running web host, as the app's pages and the Blender add-on use it: bridge calls over
// /api/call, jobs followed to their end (and their outputs cached as the app's own download does), and files
// streamed to /api/upload.
import { createReadStream, statSync } from 'node:fs';
import { request } from 'node:http';
import { basename } from 'node:path';
import { fetchJobOutputs } from '../../main/cache/auto-download.ts';
import type { RunningWebHost } from '../../main/host/web-host.ts';
import type { JobRecord } from '../../main/store/jobs.ts';

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
