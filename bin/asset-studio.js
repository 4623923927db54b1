#!/usr/bin/env node
// Launcher of the `asset-studio` command. The sources are TypeScript, run directly by Node 24.
const [major] = process.versions.node.split('.').map(Number);
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
const { main } = await import('../main/cli/main.ts');
await main();
