// `asset-studio`: the command line of Asset Studio. Every endpoint of the service, the local record of
// jobs, the local engine, and the API key file. Ctrl-C and SIGTERM end every command within seconds (stop.ts).
// Exit codes (shared/errors.ts): 0 done, 1 other failure or stopped, 2 bad
// usage or a request rejected before sending, 3 the service answered with an error (or a job failed or
// was lost), 4 timeout, 5 network. With --json, an error is also printed on stdout as JSON.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { redactSecrets } from '../api/redact.ts';
import { resolveDataDir, type ConnectionSettings } from '../config/data-dir.ts';
import { findCommand, GLOBAL_OPTIONS, parseArgsOptions, type CommandSpec } from './command-table.ts';
import type { Values } from './commands.ts';
import type { CliIO, CommandContext } from './context.ts';
import { describeFailure, failureJson } from './error-report.ts';
import { PathAliases } from './file-names.ts';
import { exitWhenFlushed, writerOf } from './flush.ts';
import { commandHelp, generalHelp, markdownReference } from './help.ts';
import { neutralise } from './terminal-text.ts';
import { checkExclusive, checkNumbers, joinNegativeNumbers, resolvePaths } from './option-values.ts';
import { parseNumber } from './values.ts';
import { UsageError } from './usage-error.ts';
import { afterInterrupt, stopAfterGrace } from './stop.ts';

export type { CliIO } from './context.ts';

type Run = (ctx: CommandContext, engineSpeed: number | undefined) => Promise<number>;

/**
 * What runs each command that does not call one endpoint. A command's code is loaded when it runs (one dynamic
 * import each), so `--help`, `key` or `list` never load the embedded engine (and Babylon with it) or the export.
 */
const RUNS: Record<string, () => Promise<Run>> = {
  key: async () => (await import('./admin-commands.ts')).keyCommand,
  doctor: async () => (await import('./doctor-command.ts')).doctorCommand,
  engine: async () => (await import('./admin-commands.ts')).engineCommand,
  webhooks: async () => (await import('./admin-commands.ts')).webhooksCommand,
  batch: async () => (await import('./batch-command.ts')).batchCommand,
  pull: async () => (await import('./files-commands.ts')).pullCommand,
  cache: async () => (await import('./files-commands.ts')).cacheCommand,
  export: async () => (await import('./files-commands.ts')).exportCommand,
  check: async () => (await import('./check-command.ts')).checkCommand,
  jobs: async () => (await import('./job-commands.ts')).JOB_COMMANDS.jobs,
  job: async () => (await import('./job-commands.ts')).JOB_COMMANDS.job,
  wait: async () => (await import('./job-commands.ts')).JOB_COMMANDS.wait,
  watch: async () => (await import('./job-commands.ts')).JOB_COMMANDS.watch,
  cancel: async () => (await import('./job-commands.ts')).JOB_COMMANDS.cancel,
  retry: async () => (await import('./job-commands.ts')).JOB_COMMANDS.retry,
  reconcile: async () => (await import('./job-commands.ts')).JOB_COMMANDS.reconcile,
  rename: async () => (await import('./library-commands.ts')).LIBRARY_COMMANDS.rename,
  delete: async () => (await import('./library-commands.ts')).LIBRARY_COMMANDS.delete,
};

/** Is `--json` among the options (before a `--` that ends them)? Known even when the rest cannot be read. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const secrets: string[] = [];
  const aliases = new PathAliases();
  const json = wantsJson(argv);
  let printed = false;
  // The output boundary: secrets redacted, file aliases named as given, terminal control neutralised.
  const redacted: CliIO = {
    ...io,
    stdout: (t) => {
      printed = true;
      io.stdout(neutralise(aliases.rewrite(redactSecrets(t, secrets), json), json));
    },
    stderr: (t) => io.stderr(neutralise(aliases.rewrite(redactSecrets(t, secrets), false))),
    terminal: (t) => io.stderr(aliases.rewrite(redactSecrets(t, secrets), false)),
  };
  // A command still running STOP_GRACE_MS after Ctrl-C or SIGTERM (a service that never answers) ends as `stopped`.
  const stop = stopAfterGrace(io.interrupt);
  try {
    const run = runCommand(argv, io, redacted, { secrets, aliases, json });
    return await Promise.race([run, stop.stopped, ...(io.uncaught === undefined ? [] : [io.uncaught])]);
  } catch (error) {
    const failure = describeFailure(afterInterrupt(error, io.interrupt), { stopped: io.interrupt.aborted });
    redacted.stderr(`error: ${failure.message}\n`);
    // One JSON document on stdout: an error that comes after the result was printed is told on stderr only.
    if (json && !printed) redacted.stdout(failureJson(failure));
    return failure.exitCode;
  } finally {
    stop.cancel();
    aliases.close();
  }
}

async function runCommand(
  argv: string[],
  io: CliIO,
  redacted: CliIO,
  run: { secrets: string[]; aliases: PathAliases; json: boolean },
): Promise<number> {
  const { secrets } = run;
  const { name, rest } = splitCommand(argv);
  if (name === 'version') {
    redacted.stdout(run.json ? `${JSON.stringify({ version: readVersion() })}\n` : `${readVersion()}\n`);
    return 0;
  }
  if (name === undefined || name === 'help') {
    const about = name === 'help' ? rest.find((a) => !a.startsWith('-')) : undefined;
    if (about !== undefined) {
      redacted.stdout(`${commandHelp(known(about))}\n`);
      return 0;
    }
    if (name === 'help' && rest.includes('--markdown')) {
      redacted.stdout(`${markdownReference()}\n`);
      return 0;
    }
    const asked = name === 'help' || argv.includes('--help') || argv.includes('-h');
    if (!asked && run.json) throw new UsageError('no command given. Run "asset-studio help" to see the commands.');
    redacted.stdout(`${generalHelp()}\n`);
    return asked ? 0 : 2;
  }
  const spec = known(name);
  const parsed = parseArgs({
    args: joinNegativeNumbers(rest, spec),
    options: parseArgsOptions(spec),
    allowPositionals: true,
    strict: true,
  });
  const values = parsed.values as Values;
  if (values.help) {
    redacted.stdout(`${commandHelp(spec)}\n`);
    return 0;
  }
  // What a command needs beyond its help: the data folder, the connection, the endpoint table (loaded here).
  const [{ openDataFolder }, { resolveCliConnection, str }] = await Promise.all([
    import('../store/data-folder.ts'),
    import('./context.ts'),
  ]);
  checkNumbers(values, spec);
  checkExclusive(values, spec);
  const positionals = resolvePaths(spec, values, parsed.positionals, run.aliases);
  const dataDir = resolveDataDir({ flags: { dataDir: str(values, 'data-dir') }, env: io.env });
  // Before anything reads or writes there: created 0700 or made private (one line), DataFolderError (exit 2) when unusable.
  openDataFolder(dataDir, { notice: (line) => redacted.stderr(`${line}\n`) });
  // `key` needs no connection; `doctor` must not open the database it is to check (the saved profile is in it).
  const settings: ConnectionSettings =
    name === 'key' || name === 'doctor' ? { dataDir } : await resolveCliConnection(values, redacted, secrets);
  const speedText = str(values, 'engine-speed');
  const engineSpeed = speedText === undefined ? undefined : parseNumber('engine-speed', speedText);
  const engineOptions = { ...(engineSpeed !== undefined && { engineSpeed }), ...engineCreditsOf(io.env) };
  const ctx: CommandContext = {
    io: redacted,
    values,
    positionals,
    settings,
    secrets,
    services: async (options) => {
      // The composition root (client, database, tracker, cache; the engine only in embedded mode), when a command needs it.
      const { createServices, localEngineKey } = await import('../app/services.ts');
      const services = await createServices(settings, { ...engineOptions, ...options });
      if (services.mode === 'embedded') secrets.push(localEngineKey(settings.dataDir));
      return services;
    },
    readClient: async () => {
      // A read needs the client alone; in embedded mode that is the composition root's (with its engine).
      const { createReadClient } = await import('../app/read-client.ts');
      const read = await createReadClient(settings, engineOptions);
      if (read.mode === 'embedded') secrets.push((await import('../app/services.ts')).localEngineKey(settings.dataDir));
      return read;
    },
  };
  const load = RUNS[name];
  if (load) return await (await load())(ctx, engineSpeed);
  const [{ endpointCommand }, { runEndpointCommand }] = await Promise.all([
    import('./commands.ts'),
    import('./endpoint-command.ts'),
  ]);
  const endpoint = endpointCommand(name);
  if (!endpoint) throw new Error(`no code runs the command "${name}"`); // the command table and RUNS disagree
  return await runEndpointCommand(endpoint, ctx);
}

/** The command of this name, or a UsageError. */
function known(name: string): CommandSpec {
  const spec = findCommand(name);
  if (!spec) throw new UsageError(`unknown command "${name}". Run "asset-studio help" to see the commands.`);
  return spec;
}

const STRING_GLOBALS = new Set(
  Object.entries(GLOBAL_OPTIONS)
    .filter(([, o]) => o.type === 'string')
    .map(([k]) => `--${k}`),
);

/** The command is the first word that is neither an option nor the value of a global option. */
function splitCommand(argv: string[]): { name: string | undefined; rest: string[] } {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--version') return { name: 'version', rest: [] };
    if (arg.startsWith('-')) {
      if (STRING_GLOBALS.has(arg)) i++;
      continue;
    }
    return { name: arg, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
  }
  return { name: undefined, rest: argv };
}

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * An error nothing caught (thrown in a timer's callback, a promise nobody awaited): it ends the command as its
 * failure, said in words (and as JSON with --json) instead of Node's stack trace.
 */
function uncaughtErrors(): Promise<never> {
  const { promise, reject } = Promise.withResolvers<never>();
  promise.catch(() => undefined); // read by runCli; never an unhandled rejection itself
  process.on('uncaughtException', reject);
  process.on('unhandledRejection', reject);
  return promise;
}

/** Runs the CLI as the process. A second Ctrl-C exits at once. */
export async function main(): Promise<void> {
  const interrupt = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interrupt.signal.aborted) process.exit(130);
      interrupt.abort(signal); // its reason names the signal in the `stopped` report
    });
  }
  const code = await runCli(process.argv.slice(2), {
    stdout: writerOf(process.stdout),
    stderr: writerOf(process.stderr),
    env: process.env,
    stderrIsTTY: process.stderr.isTTY === true,
    readStdin: async () => {
      let text = '';
      for await (const chunk of process.stdin) text += String(chunk);
      return text;
    },
    interrupt: interrupt.signal,
    uncaught: uncaughtErrors(),
  });
  // Output into a pipe is written asynchronously: exiting before it is flushed would cut it (at 64 KiB).
  await exitWhenFlushed(code);
}

if (import.meta.main) await main();

/**
 * Tests only: ASSET_STUDIO_ENGINE_CREDITS sets the starting balance of a new embedded engine account (as it does
 * for main/engine/run.ts), so a short balance can be tried without spending 1000 credits first.
 */
function engineCreditsOf(env: NodeJS.ProcessEnv): { engineCredits?: number } {
  const text = env.ASSET_STUDIO_ENGINE_CREDITS?.trim();
  const credits = text ? Number(text) : NaN;
  return Number.isInteger(credits) && credits >= 0 ? { engineCredits: credits } : {};
}
