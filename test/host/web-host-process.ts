// A web host in a process of its own, for the tests that check a peer cannot end it: prints
// `{"port": …, "token": …}` on one line once it listens, and runs until it is killed.
// Usage: node test/host/web-host-process.ts <data dir> (ASSET_STUDIO_BASE_URL and ASSET_STUDIO_API_KEY, when set,
// name the service, as for scripts/start.ts; else the embedded engine)
import { join } from 'node:path';
import { startWebHost } from '../../main/host/web-host.ts';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('Usage: node test/host/web-host-process.ts <data dir>');
const host = await startWebHost({
  dataDir,
  rendererDir: join(dataDir, 'no-renderer'),
  serviceOptions: { engineSpeed: 500 },
  connectionSources: { env: process.env },
});
process.stdout.write(`${JSON.stringify({ port: host.port, token: host.token })}\n`);
process.on('SIGTERM', () => void host.close().then(() => process.exit(0)));
