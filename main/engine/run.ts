// Starts an engine from arguments or environment variables and prints one JSON line {url, legacyUrl}
// on stdout, for child-process tests. Stops cleanly on SIGINT / SIGTERM.
//   node main/engine/run.ts --data-dir DIR --api-key KEY [--port N] [--legacy-port N] [--host H] [--speed X] [--credits N]
//     [--uploaded-images as-sent|recompressed] [--verbose]
// Environment fallbacks: ASSET_STUDIO_ENGINE_DATA_DIR, ASSET_STUDIO_API_KEY, ASSET_STUDIO_ENGINE_PORT,
// ASSET_STUDIO_ENGINE_LEGACY_PORT, ASSET_STUDIO_ENGINE_HOST, ASSET_STUDIO_ENGINE_SPEED, ASSET_STUDIO_ENGINE_CREDITS,
// ASSET_STUDIO_ENGINE_UPLOADED_IMAGES (and
// ASSET_STUDIO_ENGINE_FAULTS, read by startLocalEngine). Logs go to stderr; --verbose adds a line per request.
import { parseArgs } from 'node:util';
import { startLocalEngine } from './engine.ts';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'api-key': { type: 'string' },
    port: { type: 'string' },
    'legacy-port': { type: 'string' },
    host: { type: 'string' },
    speed: { type: 'string' },
    credits: { type: 'string' },
    'uploaded-images': { type: 'string' },
    verbose: { type: 'boolean' },
  },
});
const env = process.env;
const number = (text: string | undefined, name: string): number | undefined => {
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new Error(`${name} must be a number, got ${text}`);
  return n;
};

const dataDir = values['data-dir'] ?? env.ASSET_STUDIO_ENGINE_DATA_DIR;
const apiKey = values['api-key'] ?? env.ASSET_STUDIO_API_KEY;
if (!dataDir || !apiKey) {
  process.stderr.write(
    'run.ts needs --data-dir and --api-key (or ASSET_STUDIO_ENGINE_DATA_DIR and ASSET_STUDIO_API_KEY)\n',
  );
  process.exit(2);
}

const uploadedImages = values['uploaded-images'] ?? env.ASSET_STUDIO_ENGINE_UPLOADED_IMAGES;
if (
  uploadedImages !== undefined &&
  uploadedImages !== '' &&
  uploadedImages !== 'as-sent' &&
  uploadedImages !== 'recompressed'
) {
  process.stderr.write(
    `--uploaded-images must be "as-sent" or "recompressed", got ${JSON.stringify(uploadedImages)}\n`,
  );
  process.exit(2);
}

const engine = await startLocalEngine({
  dataDir,
  apiKey,
  port: number(values.port ?? env.ASSET_STUDIO_ENGINE_PORT, 'port'),
  legacyPort: number(values['legacy-port'] ?? env.ASSET_STUDIO_ENGINE_LEGACY_PORT, 'legacy port'),
  host: values.host ?? env.ASSET_STUDIO_ENGINE_HOST,
  speed: number(values.speed ?? env.ASSET_STUDIO_ENGINE_SPEED, 'speed'),
  initialCredits: number(values.credits ?? env.ASSET_STUDIO_ENGINE_CREDITS, 'credits'),
  ...(uploadedImages ? { uploadedImages } : {}),
  log: (line) => process.stderr.write(`${line}\n`),
  logRequests: values.verbose ?? false,
});
process.stdout.write(`${JSON.stringify({ url: engine.url, legacyUrl: engine.legacyUrl })}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    engine.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
