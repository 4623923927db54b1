// A web host in a process of its own, for the add-on's Python tests (test/blender/test_link.py): starts on
// the data folder given (writing its link.json there), prints `{"port": …, "token": …, "linkToken": …}` on one line once it
// listens, and closes cleanly (removing link.json) on SIGTERM or when its standard input ends.
// Usage: node test/blender/web-host-process.ts <data dir> [engine speed, default 500]
import { join } from 'node:path';
import { startWebHost } from '../../main/host/web-host.ts';

const [dataDir, speed] = process.argv.slice(2);
if (dataDir === undefined) throw new Error('Usage: node test/blender/web-host-process.ts <data dir> [engine speed]');
const host = await startWebHost({
  dataDir,
  rendererDir: join(dataDir, 'no-renderer'),
  serviceOptions: { engineSpeed: Number(speed ?? 500) },
  notice: () => undefined,
});
process.stdout.write(`${JSON.stringify({ port: host.port, token: host.token, linkToken: host.linkToken })}\n`);
let closing = false;
const stop = () => {
  if (closing) return;
  closing = true;
  void host.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
