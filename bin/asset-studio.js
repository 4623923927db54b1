#!/usr/bin/env node
// Launcher of the `asset-studio` command: runs the command bundled from its TypeScript sources into dist/cli/, or
// the sources themselves (Node 24 strips their types): cli-entry.js says which.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `asset-studio needs Node.js 24 or newer (this is ${process.version}). Install Node 24, e.g. with "nvm install 24".\n`,
  );
  process.exit(2);
}
// Node's compile cache keeps the compiled code of every module, TypeScript stripped: later runs skip the
// stripping and parsing, which is most of a short command's time and memory. It lives in the user's own cache
// folder ($XDG_CACHE_HOME or ~/.cache, asset-studio/compile-cache), never a shared temporary folder another user
// could fill first; NODE_COMPILE_CACHE moves it, NODE_DISABLE_COMPILE_CACHE=1 turns it off.
const { enableCompileCache } = await import('node:module');
if (enableCompileCache && !process.env.NODE_COMPILE_CACHE) {
  const { homedir } = await import('node:os');
  const { join } = await import('node:path');
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  enableCompileCache(join(base, 'asset-studio', 'compile-cache'));
} else enableCompileCache?.();
// The command bundled into dist/cli/ when it is current (built now if the sources changed), else the sources:
// cli-entry.js says why and when.
const { cliEntry } = await import('./cli-entry.js');
const { pathToFileURL } = await import('node:url');
const { main } = await import(pathToFileURL(await cliEntry()).href);
await main();
