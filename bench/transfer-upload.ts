// bench/transfer-upload: (1) a large multipart upload of a sparse FBX to the engine (a child process)
// through our client versus `curl -F file=@…` to the same endpoint, alternating in the same run; our
// upload runs in a child process of its own so that its peak RSS can be read (goals: throughput
// >= 0.8x curl, peak RSS <= 150 MB). (2) A batch of small valid images and FBX files through runBatch
// (inspection, hashing, journal, job records) versus the same creates as bare client calls with the same
// concurrency: wall time and per-file overhead.
// The engine keeps its data on /dev/shm when there is one, and each stored upload is deleted after its
// run, so that disk write-back (500 MB per run) does not blur the comparison.
// The ratio is the median of the per-run ratios (each run uploads once each way, in alternating order),
// which holds up better than a ratio of medians when the machine is shared.
// Run: node bench/transfer-upload.ts [--size-mb 500] [--runs 7] [--files 200]
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs, promisify } from 'node:util';
import { ServiceClient } from '../main/api/client.ts';
import { renderPreviewImage } from '../main/engine/outputs/index.ts';
import { runBatch } from '../main/app/batch.ts';
import { toDataUri } from '../main/files/inspect-image.ts';
import { Submitter } from '../main/jobs/submit.ts';
import { JobTracker } from '../main/jobs/tracker.ts';
import { openDatabase } from '../main/store/database.ts';
import { sparseFbx, UPLOAD_CHILD, type ChildReport } from '../test/files/helpers.ts';
import { riggedCharacter } from '../test/fixtures.ts';

/** A rigged character for the batch's FBX files (the engine refuses an FBX with no bones). */
const CHARACTER = riggedCharacter();

const { values } = parseArgs({
  options: {
    'size-mb': { type: 'string', default: '500' },
    runs: { type: 'string', default: '7' },
    files: { type: 'string', default: '200' },
  },
});
const sizeBytes = Number(values['size-mb']) * 1e6;
const runs = Number(values.runs);
const fileCount = Number(values.files);
const apiKey = 'bench-key-0123456789';
const work = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'bench-transfer-'));
const run = promisify(execFile);

const engine = spawn(process.execPath, ['main/engine/run.ts'], {
  env: {
    ...process.env,
    ASSET_STUDIO_ENGINE_DATA_DIR: join(work, 'engine'),
    ASSET_STUDIO_API_KEY: apiKey,
    ASSET_STUDIO_ENGINE_SPEED: '1',
    ASSET_STUDIO_ENGINE_CREDITS: '1000000',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const first = await new Promise<string>((resolve) => createInterface({ input: engine.stdout! }).once('line', resolve));
const { url } = JSON.parse(first) as { url: string };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mbps = (bytes: number, seconds: number) => bytes / 1e6 / seconds;

try {
  // ---- 1. one large upload: ours (child process) vs curl ------------------------------------------
  const big = join(work, 'big.fbx');
  await sparseFbx(big, sizeBytes);
  const ours: number[] = [];
  const curl: number[] = [];
  const rss: number[] = [];
  const viaOurs = async () => {
    const { stdout } = await run(process.execPath, [UPLOAD_CHILD, url, apiKey, big]);
    const report = JSON.parse(stdout) as ChildReport;
    if (report.sent !== sizeBytes) throw new Error(`our upload sent ${report.sent} of ${sizeBytes} bytes`);
    ours.push(mbps(sizeBytes, report.seconds));
    rss.push(report.maxRssBytes / 2 ** 20);
  };
  const viaCurl = async () => {
    const { stdout } = await run('curl', [
      '-sS',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{time_total}',
      '-H',
      `x-api-key: ${apiKey}`,
      '-F',
      `file=@${big}`,
      `${url}/mesh-animation/upload`,
    ]);
    const [status, seconds] = stdout.trim().split(' ');
    if (status !== '200') throw new Error(`curl upload answered HTTP ${status}`);
    curl.push(mbps(sizeBytes, Number(seconds)));
  };
  const dropStoredUploads = () => {
    for (const entry of readdirSync(join(work, 'engine'), { recursive: true, withFileTypes: true })) {
      if (entry.name.startsWith('upload.')) rmSync(join(entry.parentPath, entry.name));
    }
  };
  for (let r = 0; r < runs; r++) {
    for (const upload of r % 2 === 0 ? [viaOurs, viaCurl] : [viaCurl, viaOurs]) {
      await upload();
      dropStoredUploads();
    }
  }
  rmSync(big);
  console.log(
    `${runs} alternating runs of a ${sizeBytes / 1e6} MB multipart upload (sparse FBX) to POST /mesh-animation/upload (medians)`,
  );
  console.log(
    `curl -F file=@…     : ${median(curl).toFixed(0)} MB/s   (runs: ${curl.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(
    `asset-studio upload : ${median(ours).toFixed(0)} MB/s   (runs: ${ours.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(
    `ratio ours/curl     : ${median(ours.map((x, i) => x / curl[i]!)).toFixed(2)} (median of the per-run throughput ratios; goal >= 0.8)`,
  );
  console.log(
    `our peak RSS        : ${Math.max(...rss).toFixed(1)} MB in the uploading child process (goal <= 150 MB)`,
  );

  // ---- 2. a batch of small files ------------------------------------------------------------------
  const folder = join(work, 'drop');
  mkdirSync(folder);
  for (let i = 0; i < fileCount; i++) {
    const name = `item-${String(i).padStart(3, '0')}`;
    if (i % 2 === 0) writeFileSync(join(folder, `${name}.png`), renderPreviewImage(name, 128, 128));
    // (A rigged character: the engine refuses an FBX with no bones, its own generated models included.)
    else writeFileSync(join(folder, `${name}.fbx`), CHARACTER);
  }
  const store = openDatabase(join(work, 'asset-studio.db'));
  const client = new ServiceClient({ baseUrl: url, apiKey });
  const submitter = new Submitter({ store, client, tracker: new JobTracker({ store, client }) });

  // Baseline: the same creates as bare client calls, 3 at a time, images already read as data URIs.
  const paths = readdirSync(folder)
    .sort()
    .map((n) => join(folder, n));
  const images = new Map(
    await Promise.all(paths.filter((p) => p.endsWith('.png')).map(async (p) => [p, await toDataUri(p)] as const)),
  );
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      while (next < paths.length) {
        const path = paths[next++]!;
        const image = images.get(path);
        if (image) await client.createImageTo3d({ image_url: image });
        else await client.uploadAnimationMesh({ file: path });
      }
    }),
  );
  const bareMs = performance.now() - t0;

  const t1 = performance.now();
  const summary = await runBatch([folder], { submitter });
  const batchMs = performance.now() - t1;
  if (summary.submitted !== fileCount)
    throw new Error(
      `batch submitted ${summary.submitted} of ${fileCount}: ${JSON.stringify(summary.items.find((i) => i.error))}`,
    );
  console.log(
    `\nbatch of ${fileCount} files (${fileCount / 2} PNG 128×128, ${fileCount / 2} binary FBX), concurrency 3`,
  );
  console.log(
    `bare client calls   : ${bareMs.toFixed(0)} ms, ${(bareMs / fileCount).toFixed(2)} ms/file (creates only, images read beforehand)`,
  );
  console.log(
    `runBatch            : ${batchMs.toFixed(0)} ms, ${(batchMs / fileCount).toFixed(2)} ms/file (walk, inspect, hash, data URI, journal, job record)`,
  );
  console.log(`overhead per file   : ${((batchMs - bareMs) / fileCount).toFixed(2)} ms`);
  await client.close();
  store.close();
} finally {
  engine.kill('SIGTERM');
  await new Promise((resolve) => engine.once('exit', resolve));
  rmSync(work, { recursive: true, force: true });
}
