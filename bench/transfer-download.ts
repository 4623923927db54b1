// bench/transfer-download: a 1 GiB output served by the engine (a child process) over loopback, fetched
// through our download cache (streamed, hashed, synced, renamed into the blob store) and by
// `curl -s -o FILE URL`, in alternating rounds of the same run. Prints both throughputs, the ratio
// (goal >= 0.9) and our peak RSS (goal <= 150 MB), read in the child that downloads.
// The file is registered through the engine's FileStore, so it is served by the engine's own code:
// signed URL, strong ETag, ranges.
// Run: node bench/transfer-download.ts [--size-mib 1024] [--rounds 3] [--record]
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { FileStore } from '../main/engine/file-store.ts';
import { loadSigner } from '../main/engine/signing.ts';
import { writeVaried } from '../test/cache/helpers.ts';

const { values } = parseArgs({ options: { 'size-mib': { type: 'string', default: '1024' }, rounds: { type: 'string', default: '3' }, record: { type: 'boolean', default: false } } });
const size = Number(values['size-mib']) * 2 ** 20;
const rounds = Number(values.rounds);
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'bench-download-'));
const engineDir = join(work, 'engine');
const apiKey = 'bench-key-0123456789';

const engine = spawn(process.execPath, ['main/engine/run.ts'], {
  env: { ...process.env, ASSET_STUDIO_ENGINE_DATA_DIR: engineDir, ASSET_STUDIO_API_KEY: apiKey },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const first = await new Promise<string>((resolve) => createInterface({ input: engine.stdout! }).once('line', resolve));
const { url: engineUrl } = JSON.parse(first) as { url: string };

const files = new FileStore(join(engineDir, 'files'), await loadSigner(engineDir), 24 * 3_600_000);
files.baseUrl = engineUrl;
const temp = await files.tempPath();
const sha256 = await writeVaried(temp, size);
await files.adopt('bench/output.glb', temp);
const url = files.url({ key: 'bench/output.glb', recipe: { type: 'input' } });

interface Sample {
  ms: number;
  maxRssKiB?: number;
}

async function viaCache(round: number): Promise<Sample> {
  const dir = join(work, `ours-${round}`);
  const args = ['test/cache/fixtures/fetch-output.ts', '--db', join(dir, 'asset-studio.db'), '--cache-dir', join(dir, 'cache'), '--session', 'SESSION_bench', '--kind', 'glb', '--url', url];
  const { stdout } = await run(process.execPath, args, { maxBuffer: 1 << 20 });
  const result = JSON.parse(stdout) as { path: string; ms: number; maxRssKiB: number };
  if (!result.path.endsWith(sha256)) throw new Error(`our download gave ${result.path}, expected the blob ${sha256}`);
  rmSync(dir, { recursive: true, force: true });
  return { ms: result.ms, maxRssKiB: result.maxRssKiB };
}

async function viaCurl(round: number): Promise<Sample> {
  const out = join(work, `curl-${round}.bin`);
  const { stdout } = await run('curl', ['-s', '-o', out, '-w', '%{time_total} %{size_download}', url]);
  const [seconds, bytes] = stdout.trim().split(' ').map(Number) as [number, number];
  if (bytes !== size) throw new Error(`curl got ${bytes} bytes, expected ${size}`);
  rmSync(out, { force: true });
  return { ms: seconds * 1000 };
}

const ours: Sample[] = [];
const curl: Sample[] = [];
try {
  await viaCurl(-1); // warm-up: the file in the page cache, the engine's code paths hot
  for (let round = 0; round < rounds; round++) {
    // Alternate which goes first, so drift hits both alike.
    if (round % 2 === 0) {
      ours.push(await viaCache(round));
      curl.push(await viaCurl(round));
    } else {
      curl.push(await viaCurl(round));
      ours.push(await viaCache(round));
    }
  }
} finally {
  engine.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mibps = (ms: number) => size / 2 ** 20 / (ms / 1000);
const oursMs = median(ours.map((s) => s.ms));
const curlMs = median(curl.map((s) => s.ms));
const peakMb = Math.max(...ours.map((s) => s.maxRssKiB!)) / 1024;
const report = [
  `${rounds} alternating rounds, ${values['size-mib']} MiB output served by the engine over loopback (medians shown)`,
  `curl -s -o FILE URL : ${mibps(curlMs).toFixed(0)} MiB/s (${curlMs.toFixed(0)} ms)`,
  `download cache      : ${mibps(oursMs).toFixed(0)} MiB/s (${oursMs.toFixed(0)} ms; streamed, SHA-256, fsync, rename)`,
  `ratio cache/curl    : ${(curlMs / oursMs).toFixed(2)} (throughput; goal >= 0.9)`,
  `peak RSS (cache)    : ${peakMb.toFixed(0)} MB (maxRSS of the downloading process; goal <= 150 MB)`,
].join('\n');
console.log(report);

if (values.record) {
  // Appended at the end of this script's section, wherever it is in the file; other sections are left alone.
  const path = 'bench/RESULTS.md';
  const heading = '## transfer: download cache (issue: files)';
  const text = readFileSync(path, 'utf8');
  const intro =
    `\n${heading}\n\nA 1 GiB output served by the engine (registered through its FileStore: signed URL, ETag, ranges) over\n` +
    'loopback, through the download cache in a child process (streamed to a partial file, hashed while it\n' +
    'streams, synced, renamed into the blob store) and through `curl -s -o FILE URL`, alternating in one run.\n' +
    'Goals: throughput ratio >= 0.9, peak RSS <= 150 MB.\n\nCommand: `node bench/transfer-download.ts --record`\n';
  const start = text.indexOf(heading);
  const next = start < 0 ? -1 : text.indexOf('\n## ', start + heading.length);
  const end = start < 0 ? text.length : next < 0 ? text.length : next;
  const entry = `\n\`\`\`\n${new Date().toISOString().slice(0, 10)}, ${process.version}\n${report}\n\`\`\`\n`;
  writeFileSync(path, text.slice(0, end) + (start < 0 ? intro : '') + entry + text.slice(end));
}
