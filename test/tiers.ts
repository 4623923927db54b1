// The test tiers: the one home of which folder holds which kind of test, what each may use and what it costs.
// vitest.config.ts makes a project of each (`npm run test:<name>` runs one, `npm test` all of them);
// test/tiers.test.ts checks that no fast test reaches for what only the slower tiers may use.

export interface Tier {
  name: 'fast' | 'process' | 'e2e' | 'dcc';
  /** The folder under test/ that holds the tier's tests; the fast tier is every other folder. */
  folder: string | null;
  /** What its tests may use, and so what the tier costs. */
  uses: string;
  include: string[];
  exclude: string[];
  /**
   * Whether each file gets fresh modules. Off where files do not leave state behind them: the worker then
   * loads the code under test (Babylon.js, the engine) once for all its files instead of once per file.
   */
  isolate: boolean;
  globalSetup?: string;
  /** The cap of a hung test or hook (never a measure of speed), where it differs from the suite's 120 s. */
  timeoutMs?: number;
}

const FOLDERS = { process: 'test/process', e2e: 'test/e2e', dcc: 'test/blender' } as const;
const inFolder = (folder: string) => [`${folder}/**/*.test.ts`];

export const TIERS: readonly Tier[] = [
  {
    name: 'fast',
    folder: null,
    uses: 'only the test process: no child process, no browser, no Blender; servers it starts itself (the engine over real HTTP included)',
    include: ['test/**/*.test.ts'],
    exclude: Object.values(FOLDERS).flatMap(inFolder),
    isolate: false,
  },
  {
    name: 'process',
    folder: FOLDERS.process,
    uses: 'child processes: the CLI launcher (exit codes, pipes, signals, other users), engines and hosts of their own, kill -9; the CLI is bundled once per run when its sources changed',
    include: inFolder(FOLDERS.process),
    exclude: [],
    isolate: true,
    globalSetup: 'test/process/global-setup.ts',
  },
  {
    name: 'e2e',
    folder: FOLDERS.e2e,
    uses: "Debian's Chromium driven by playwright-core, against the web host; the renderer is built once per run",
    include: inFolder(FOLDERS.e2e),
    exclude: [],
    isolate: false,
    globalSetup: 'test/e2e/global-setup.ts',
    // One Chromium page with SwiftShader WebGL on a loaded 2-core machine (load 20) takes ten times its usual time.
    timeoutMs: 300_000,
  },
  {
    name: 'dcc',
    folder: FOLDERS.dcc,
    uses: 'headless Blender (started once per file for many checks) and its Python',
    include: inFolder(FOLDERS.dcc),
    exclude: [],
    isolate: true,
  },
];

/** What a fast test may not import, directly or through the test helpers it imports. */
export const SLOW_MODULES: readonly string[] = ['node:child_process', 'child_process', 'playwright-core'];
