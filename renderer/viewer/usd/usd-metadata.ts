// The USD loader's name and extensions, imported by ../scene/configure.ts (everything else of the USD
// support is in lazily loaded chunks: usd-loader.ts, and Babylon's own OpenUSD loader when its runtime is
// installed).
export const USD_LOADER_NAME = 'usd';
export const USD_EXTENSIONS = { '.usdz': { isBinary: true }, '.usda': { isBinary: true } } as const;
