#!/usr/bin/env node
// Launcher of the `asset-studio` command. The sources are TypeScript, run directly by Node 24.
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  process.stderr.write(
    `asset-studio needs Node.js 24 or newer (this is ${process.version}). Install Node 24, e.g. with "nvm install 24".\n`,
  );
  process.exit(2);
}
const { main } = await import('../main/cli/main.ts');
await main();
