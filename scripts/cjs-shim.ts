// Injected into the CommonJS bundles of the Electron shell: what `import.meta` gives the ESM sources.
// (Every module using import.meta.url / import.meta.dirname sits two folders below the checkout's root,
// as dist/electron/*.cjs does, so their relative paths hold in the bundle too.)
import { pathToFileURL } from 'node:url';

export const importMetaUrl = pathToFileURL(__filename).href;
