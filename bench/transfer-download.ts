// bench/transfer-download: a 1 GiB output served by the engine (a child process) over loopback, fetched
// through our download cache (streamed, hashed, synced, renamed into the blob store) and by
// `curl -s -o FILE URL`, in alternating rounds of the same run. Prints both throughputs, the ratio
// (goal >= 0.9) and our peak RSS (goal <= 150 MB), read in the child that downloads. Since the cache
// fsyncs its blob and curl does not, `curl` followed by `sync FILE` is timed too: on a slow disk the
// sync, not the transfer, sets the pace; and since the cache hashes what it writes (its blobs are named by
// SHA-256) and curl does not, `curl | tee FILE | openssl dgst -sha256` (the same work with standard tools)
// is timed too. `--dir` chooses the file system all of them write to.
// The file is registered through the engine's FileStore, so it is served by the engine's own code:
// signed URL, strong ETag, ranges.
// Run: node bench/transfer-download.ts [--size-mib 1024] [--rounds 3] [--dir /dev/shm] [--record]
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs, promisify } from 'node:util';
import { FileStore } from '../main/engine/file-store.ts';
import { loadSigner } from '../main/engine/signing.ts';
import { writeVaried } from '../test/cache/helpers.ts';

const { values } = parseArgs({
  options: {
    'size-mib': { type: 'string', default: '1024' },
    rounds: { type: 'string', default: '3' },
    dir: { type: 'string', default: tmpdir() },
    record: { type: 'boolean', default: false },
  },
});
const size = Number(values['size-mib']) * 2 ** 20;
const rounds = Number(values.rounds);
const run = promisify(execFile);
const engineDir = mkdtempSync(join(tmpdir(), 'bench-download-engine-'));
const work = mkdtempSync(join(values.dir, 'bench-download-'));
const apiKey = 'bench-key-0123456789';

const engine = spawn(process.execPath, ['main/engine/run.ts'], {
  env: { ...process.env, ASSET_STUDIO_ENGINE_DATA_DIR: engineDir, ASSET_STUDIO_API_KEY: apiKey },
  stdio: ['ignore', 'pipe', 'ignore'],
});
const first = await new Promise<string>((resolve) => createInterface({ input: engine.stdout! }).once('line', resolve));
const { url: engineUrl } = JSON.parse(first) as { url: string };

const files = new FileStore(join(engineDir, 'files'), await loadSigner(engineDir), 24 * 3_600_000);
files.baseUrl = engineUrl;
async function host(key: string, bytes: number): Promise<{ url: string; sha256: string }> {
  const temp = await files.tempPath();
  const sha256 = await writeVaried(temp, bytes);
  await files.adopt(key, temp);
  return { url: files.url({ key, recipe: { type: 'input' } }), sha256 };
}
const big = await host('bench/output.glb', size);
const small = await host('bench/small.glb', 2 ** 20);

interface Sample {
  ms: number;
  /** CPU time of the downloading process (ours: during the fetch; curl: whole run, via /usr/bin/time). */
  cpuMs?: number;
  /** CPU time the engine spent serving this download (Linux: from /proc). */
  engineCpuMs?: number;
  maxRssKiB?: number;
}

/** The engine's CPU time so far, in ms (undefined where /proc is not there). */
function engineCpuMs(): number | undefined {
  try {
    const fields = readFileSync(`/proc/${engine.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in ticks of 1/100 s
  } catch {
    return undefined;
  }
}

/** Runs `step`, adding the engine's CPU time for it. */
async function withEngineCpu(step: () => Promise<Sample>): Promise<Sample> {
  const before = engineCpuMs();
  const sample = await step();
  const after = engineCpuMs();
  return before === undefined || after === undefined ? sample : { ...sample, engineCpuMs: after - before };
}

const timeBinary = ['/usr/bin/time'].find((path) => {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
});

/** Our side, in a child process (test/cache/fixtures/fetch-output.ts) with a fresh cache folder. */
async function viaCache(name: string, file: { url: string; sha256: string }): Promise<Sample> {
  const dir = join(work, name);
  const args = [
    'test/cache/fixtures/fetch-output.ts',
    '--db',
    join(dir, 'asset-studio.db'),
    '--cache-dir',
    join(dir, 'cache'),
    '--session',
    'SESSION_bench',
    '--kind',
    'glb',
    '--url',
    file.url,
  ];
  const { stdout } = await run(process.execPath, args, { maxBuffer: 1 << 20 });
  const result = JSON.parse(stdout) as { path: string; ms: number; cpuMs: number; maxRssKiB: number };
  if (!result.path.endsWith(file.sha256))
    throw new Error(`our download gave ${result.path}, expected the blob ${file.sha256}`);
  rmSync(dir, { recursive: true, force: true });
  return { ms: result.ms, cpuMs: result.cpuMs, maxRssKiB: result.maxRssKiB };
}

/** curl's own transfer time; with `sync`, plus the time `sync FILE` takes to make it durable. */
async function viaCurl(name: string, sync: boolean): Promise<Sample> {
  const out = join(work, `${name}.bin`);
  const curlArgs = ['-s', '-o', out, '-w', '%{time_total} %{size_download}', big.url];
  const { stdout, stderr } = timeBinary
    ? await run(timeBinary, ['-f', 'cpu %U %S', 'curl', ...curlArgs])
    : await run('curl', curlArgs);
  const [seconds, bytes] = stdout.trim().split(' ').map(Number) as [number, number];
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(stderr);
  if (bytes !== size) throw new Error(`curl got ${bytes} bytes, expected ${size}`);
  const started = performance.now();
  if (sync) await run('sync', [out]);
  const syncMs = performance.now() - started;
  rmSync(out, { force: true });
  return { ms: seconds * 1000 + (sync ? syncMs : 0), ...(cpu && { cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000 }) };
}

/**
 * The same work as the cache with standard tools: the body written to a file and its SHA-256 computed
 * while it streams (`curl | tee FILE | openssl dgst -sha256`; OpenSSL's SHA-256 uses the CPU's SHA
 * instructions, as Node's does). Wall time of the pipeline; CPU of all three programs.
 */
async function viaCurlHashed(name: string): Promise<Sample> {
  const out = join(work, `${name}.bin`);
  const script = `curl -s "$1" | tee "$2" | openssl dgst -sha256 -r`;
  const started = performance.now();
  const args = ['-c', script, 'sh', big.url, out];
  const { stdout, stderr } = timeBinary
    ? await run(timeBinary, ['-f', 'cpu %U %S', 'sh', ...args])
    : await run('sh', args);
  const ms = performance.now() - started;
  const digest = stdout.trim().split(/\s+/)[0];
  if (digest !== big.sha256) throw new Error(`curl | tee | openssl gave the SHA-256 ${digest}, expected ${big.sha256}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(stderr);
  rmSync(out, { force: true });
  return { ms, ...(cpu && { cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000 }) };
}

const ours: Sample[] = [];
const curl: Sample[] = [];
const curlSync: Sample[] = [];
const curlHashed: Sample[] = [];
let baseline: Sample;
try {
  await viaCurl('warm-up', false); // the file in the page cache, the engine's code paths hot
  baseline = await viaCache('baseline', small);
  for (let round = 0; round < rounds; round++) {
    // Rotate which goes first, so drift of the machine hits all alike.
    const steps = [
      async () => ours.push(await withEngineCpu(() => viaCache(`ours-${round}`, big))),
      async () => curl.push(await withEngineCpu(() => viaCurl(`curl-${round}`, false))),
      async () => curlSync.push(await viaCurl(`curl-sync-${round}`, true)),
      async () => curlHashed.push(await viaCurlHashed(`curl-hashed-${round}`)),
    ];
    for (let i = 0; i < steps.length; i++) await steps[(i + round) % steps.length]!();
  }
} finally {
  engine.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
  rmSync(engineDir, { recursive: true, force: true });
}

const median = (xs: Sample[], field: 'ms' | 'cpuMs' | 'engineCpuMs' = 'ms') => {
  const values = xs.map((s) => s[field]).filter((v) => v !== undefined);
  return values.length === 0 ? undefined : values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
};
const seconds = (ms: number | undefined) => (ms === undefined ? 'n/a' : `${(ms / 1000).toFixed(2)} s`);
const mibps = (ms: number) => size / 2 ** 20 / (ms / 1000);
const [oursMs, curlMs, curlSyncMs, curlHashedMs] = [
  median(ours)!,
  median(curl)!,
  median(curlSync)!,
  median(curlHashed)!,
];
const mb = (kib: number) => (kib / 1024).toFixed(0);
const peak = Math.max(...ours.map((s) => s.maxRssKiB!));
const report = [
  `${rounds} rotating rounds, ${values['size-mib']} MiB output served by the engine over loopback, written to ${values.dir} (medians)`,
  `curl -s -o FILE URL      : ${mibps(curlMs).toFixed(0)} MiB/s (${curlMs.toFixed(0)} ms)`,
  `curl, then sync FILE     : ${mibps(curlSyncMs).toFixed(0)} MiB/s (${curlSyncMs.toFixed(0)} ms)`,
  `curl | tee | openssl     : ${mibps(curlHashedMs).toFixed(0)} MiB/s (${curlHashedMs.toFixed(0)} ms; the file and its SHA-256, CPU ${seconds(median(curlHashed, 'cpuMs'))})`,
  `download cache           : ${mibps(oursMs).toFixed(0)} MiB/s (${oursMs.toFixed(0)} ms; streamed, SHA-256, fsync, rename)`,
  `ratio cache/curl         : ${(curlMs / oursMs).toFixed(2)} (goal >= 0.9); cache/(curl+sync): ${(curlSyncMs / oursMs).toFixed(2)}; cache/(curl|tee|openssl): ${(curlHashedMs / oursMs).toFixed(2)}`,
  `peak RSS (cache child)   : ${mb(peak)} MB (goal <= 150 MB); the same child fetching 1 MiB: ${mb(baseline!.maxRssKiB!)} MB`,
  `CPU per download         : cache child ${seconds(median(ours, 'cpuMs'))}, curl ${seconds(median(curl, 'cpuMs'))}; ` +
    `engine serving it ${seconds(median(ours, 'engineCpuMs'))} / ${seconds(median(curl, 'engineCpuMs'))}; load average at the end ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs`,
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
    'streams, synced, renamed into the blob store), through `curl -s -o FILE URL`, through curl followed by\n' +
    '`sync FILE` (the cache makes its blob durable, curl does not) and through `curl | tee FILE | openssl dgst\n' +
    '-sha256` (the cache hashes what it writes, curl does not), in rotating rounds of one run.\n' +
    'Goals: throughput ratio >= 0.9, peak RSS <= 150 MB.\n';
  const start = text.indexOf(heading);
  const next = start < 0 ? -1 : text.indexOf('\n## ', start + heading.length);
  const end = start < 0 ? text.length : next < 0 ? text.length : next;
  const command = `node bench/transfer-download.ts ${process.argv.slice(2).join(' ')}`.trim();
  const entry = `\nCommand: \`${command}\` (${new Date().toISOString().slice(0, 10)}, ${process.version})\n\n\`\`\`\n${report}\n\`\`\`\n`;
  writeFileSync(path, text.slice(0, end) + (start < 0 ? intro : '') + entry + text.slice(end));
}
