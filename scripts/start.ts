// `npm start`: builds, then starts the desktop app (on the embedded engine until a profile with a key is
// chosen). Where the Electron binary is missing (ELECTRON_SKIP_BINARY_DOWNLOAD, a blocked download) it says
// so and starts the local web host instead. `npm run web` (`--web`) starts the web host directly.
// Options: --web, --port N (web host), --data-dir DIR, --no-build, --renderer-dir DIR (web host: build the UI
// into and serve it from DIR instead of dist/renderer), --blender-dir DIR (the Blender add-on's zip goes there
// instead of dist/blender: integrations/blender/README.md says how to install it). The UI is built only when its sources changed since
// its last build (a stamp of its inputs in the output), into a temporary folder renamed into place, so two
// starts at once both work; `--web` builds no Electron bundles. The connection is resolved as everywhere
// (main/app/connection.ts): ASSET_STUDIO_BASE_URL / ASSET_STUDIO_API_KEY, then the saved profile, then the engine.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../main/config/data-dir.ts';
import { connectionSentence } from '../shared/bridge/connection-text.ts';
import { keepServingOnDiskFull } from '../main/host/process-errors.ts';
import { closeOnSignals } from '../main/host/shutdown.ts';
import { startWebHost } from '../main/host/web-host.ts';
import { buildBlenderAddon } from './build-blender-addon.ts';
import { buildElectron, buildRendererIfPresent } from './build.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    web: { type: 'boolean' },
    port: { type: 'string' },
    'data-dir': { type: 'string' },
    'no-build': { type: 'boolean' },
    'renderer-dir': { type: 'string' },
    'blender-dir': { type: 'string' },
  },
});

/**
 * The Electron binary's path, or why there is none. Read from the electron package's path.txt rather
 * than by require('electron'), which tries to download a missing binary (slow, and blocked here).
 */
function electronBinary(): { path: string } | { missing: string } {
  let dir: string;
  try {
    dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { missing: 'the electron package is not installed: run npm install' };
  }
  let name: string;
  try {
    name = readFileSync(join(dir, 'path.txt'), 'utf8').trim();
  } catch {
    return {
      missing:
        'its download was skipped or blocked (ELECTRON_SKIP_BINARY_DOWNLOAD); run "node node_modules/electron/install.js" where the network allows it',
    };
  }
  const path = process.env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(process.env.ELECTRON_OVERRIDE_DIST_PATH, name)
    : join(dir, 'dist', name);
  return existsSync(path) ? { path } : { missing: `${path} does not exist` };
}

/** A start refused with an exit code (an unusable data folder, bad settings) is said in one line, not a stack. */
function refused(error: unknown): never {
  const exitCode = (error as { exitCode?: unknown } | null)?.exitCode;
  if (typeof exitCode !== 'number') throw error;
  console.error(`error: ${(error as Error).message}`);
  process.exit(exitCode);
}

async function web(reason?: string): Promise<void> {
  if (reason)
    console.log(
      `The Electron binary is not available (${reason}).\nStarting the local web host instead: open the address below in your browser.`,
    );
  // Without --port: the port of the last launch when it is free (an open tab reconnects), else a free one.
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new Error(`--port must be a port number (0-65535), got "${values.port}"`);
  const host = await startWebHost({
    dataDir: resolveDataDir({ flags: { dataDir: values['data-dir'] }, env: process.env }),
    ...(port !== undefined && { port }),
    ...(rendererDir !== undefined && { rendererDir }),
    connectionSources: { env: process.env },
  }).catch(refused);
  keepServingOnDiskFull(); // a full disk that escaped its action is said in a line; the host goes on
  const { connection } = host.bridge;
  console.log(
    `\nAsset Studio (web host): ${host.url}\n(the link holds the token, kept with the port between launches; stop with Ctrl+C)`,
  );
  console.log(`Connected to: ${connectionSentence(connection)}${connection.note ? `\nNote: ${connection.note}` : ''}`);
  // Ctrl-C and SIGTERM end it within seconds, whatever is in flight (main/host/shutdown.ts).
  closeOnSignals({ close: () => host.close(), log: (line) => console.log(line), exit: (code) => process.exit(code) });
}

const rendererDir = values['renderer-dir'] === undefined ? undefined : resolve(values['renderer-dir']);
if (!values['no-build']) {
  if (!values.web) await buildElectron({ ifStale: true }); // the desktop app's bundles; the web host runs from the sources
  const renderer = await buildRendererIfPresent({
    ifStale: true,
    ...(rendererDir !== undefined && { outDir: rendererDir }),
  });
  if (renderer && !renderer.built) console.log('The UI is current (nothing changed since its last build).');
  // The Blender add-on, so that a fresh clone has the zip to install (a few files zipped: cheap every start).
  const addon = buildBlenderAddon(values['blender-dir'] === undefined ? undefined : resolve(values['blender-dir']));
  const shown = relative(process.cwd(), addon);
  console.log(
    `The Blender add-on: ${shown.startsWith('..') ? addon : shown} (install it from Blender's Preferences → Add-ons → Install…; integrations/blender/README.md)`,
  );
}
const electron = values.web ? undefined : electronBinary();
if (electron === undefined) await web();
else if ('missing' in electron) await web(electron.missing);
else {
  const env = { ...process.env, ...(values['data-dir'] && { ASSET_STUDIO_DATA_DIR: values['data-dir'] }) };
  const child = spawn(electron.path, [ROOT], { stdio: 'inherit', env });
  child.once('error', (error) => void web(`${electron.path} could not be started: ${error.message}`));
  child.once('exit', (code) => {
    process.exitCode = code ?? 1;
  });
}
