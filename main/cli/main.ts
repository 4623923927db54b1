// `asset-studio`: the command line of Asset Studio. Every endpoint of the service, the local record of
// jobs, the local engine, and the API key file. Exit codes: 0 done, 1 other failure or stopped, 2 bad
// usage or a request rejected before sending, 3 the service answered with an error (or a job failed or
// was lost), 4 timeout, 5 network.
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { ENDPOINTS } from '../../shared/contract/index.ts';
import { redactSecrets } from '../api/redact.ts';
import { createServices, localEngineKey } from '../app/services.ts';
import { resolveDataDir, type ConnectionSettings } from '../config/settings.ts';
import { ENGINE_OPTIONS, engineCommand, keyCommand, WEBHOOK_OPTIONS, webhooksCommand } from './admin-commands.ts';
import { BATCH_OPTIONS, batchCommand } from './batch-command.ts';
import { cacheCommand, exportCommand, FILES_OPTIONS, pullCommand } from './files-commands.ts';
import { ENDPOINT_COMMANDS, type EndpointCommand, type Values } from './commands.ts';
import { resolveCliConnection, str, type CliIO, type CommandContext } from './context.ts';
import { runEndpointCommand } from './endpoint-command.ts';
import { JOB_COMMANDS, JOB_OPTIONS } from './job-commands.ts';
import { parseNumber, UsageError } from './values.ts';

export type { CliIO } from './context.ts';

const GLOBAL_OPTIONS = {
  'base-url': { type: 'string' },
  'legacy-base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'api-key-file': { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  wait: { type: 'boolean' },
  timeout: { type: 'string' },
  'operation-id': { type: 'string' },
  'engine-speed': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

type JobCommandName = keyof typeof JOB_COMMANDS;
const isJobCommand = (name: string): name is JobCommandName => Object.hasOwn(JOB_COMMANDS, name);

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const secrets: string[] = [];
  const redacted: CliIO = {
    ...io,
    stdout: (t) => io.stdout(redactSecrets(t, secrets)),
    stderr: (t) => io.stderr(redactSecrets(t, secrets)),
  };
  try {
    const { name, rest } = splitCommand(argv);
    if (name === undefined || name === 'help') {
      io.stdout(`${usage()}\n`);
      return name === undefined && !argv.includes('--help') && !argv.includes('-h') ? 2 : 0;
    }
    if (name === 'version') {
      io.stdout(`${readVersion()}\n`);
      return 0;
    }
    const command = ENDPOINT_COMMANDS.find((c) => c.name === name);
    const other = ['engine', 'key', 'webhooks', 'batch', 'pull', 'cache', 'export'];
    if (!command && !isJobCommand(name) && !other.includes(name)) {
      throw new UsageError(`unknown command "${name}". Run "asset-studio help" to see the commands.`);
    }
    const extra: ParseArgsOptionsConfig =
      command?.options ??
      { engine: ENGINE_OPTIONS, webhooks: WEBHOOK_OPTIONS, batch: BATCH_OPTIONS, export: FILES_OPTIONS }[name] ??
      (isJobCommand(name) ? JOB_OPTIONS : {});
    const parsed = parseArgs({ args: rest, options: { ...GLOBAL_OPTIONS, ...extra }, allowPositionals: true, strict: true });
    const values = parsed.values as Values;
    if (values.help) {
      io.stdout(`${command ? commandUsage(command) : usage()}\n`);
      return 0;
    }
    const settings: ConnectionSettings =
      name === 'key' ? { dataDir: resolveDataDir({ flags: { dataDir: str(values, 'data-dir') }, env: io.env }) } : await resolveCliConnection(values, redacted, secrets);
    const speedText = str(values, 'engine-speed');
    const engineSpeed = speedText === undefined ? undefined : parseNumber('engine-speed', speedText);
    const ctx: CommandContext = {
      io: redacted,
      values,
      positionals: parsed.positionals,
      settings,
      secrets,
      services: async (options) => {
        const services = await createServices(settings, { ...(engineSpeed !== undefined && { engineSpeed }), ...options });
        if (services.mode === 'embedded') secrets.push(localEngineKey(settings.dataDir));
        return services;
      },
    };
    if (name === 'key') return await keyCommand(ctx);
    if (name === 'engine') return await engineCommand(ctx, engineSpeed);
    if (name === 'webhooks') return await webhooksCommand(ctx);
    if (name === 'batch') return await batchCommand(ctx);
    if (name === 'pull') return await pullCommand(ctx);
    if (name === 'cache') return await cacheCommand(ctx);
    if (name === 'export') return await exportCommand(ctx);
    if (isJobCommand(name)) return await JOB_COMMANDS[name].run(ctx);
    return await runEndpointCommand(command!, ctx);
  } catch (error) {
    return report(error, (text) => redacted.stderr(`${text}\n`));
  }
}

function report(error: unknown, say: (text: string) => void): number {
  const exitCode = (error as { exitCode?: unknown }).exitCode;
  if (typeof exitCode === 'number') {
    say(`error: ${(error as Error).message}`);
    return exitCode;
  }
  if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    say(`error: ${(error as Error).message}. Run "asset-studio help" to see the options.`);
    return 2;
  }
  say(`error: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
}

const STRING_GLOBALS = new Set(Object.entries(GLOBAL_OPTIONS).filter(([, o]) => o.type === 'string').map(([k]) => `--${k}`));

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

function commandUsage(c: EndpointCommand): string {
  const options = Object.entries(c.options).map(([k, o]) => `[--${k}${o.type === 'string' ? ' VALUE' : ''}]`);
  const extras = ENDPOINTS[c.endpoint].mutating ? ` [--operation-id ID]${c.waits ? ' [--wait [--timeout SECONDS]]' : ''}` : '';
  return `asset-studio ${c.name} ${[...c.args, ...options].join(' ')}${extras}\n  ${ENDPOINTS[c.endpoint].summary}.`;
}

export function usage(): string {
  const row = (name: string, text: string) => `  ${name.padEnd(18)}${text}`;
  return [
    'Usage: asset-studio <command> [arguments] [options]',
    '',
    'Service commands:',
    ...ENDPOINT_COMMANDS.map((c) => row(c.name, ENDPOINTS[c.endpoint].summary)),
    row('batch', 'Submit files and folders: images become image-to-3D jobs, FBX/zip animation uploads'),
    '',
    'Jobs:',
    ...Object.entries(JOB_COMMANDS).map(([name, c]) => row(name, c.summary)),
    '',
    'Files:',
    row('pull', 'Download every output of a finished job into the local cache'),
    row('cache', 'ls | verify | gc: the local cache of outputs (works offline)'),
    row('export', 'Put a job\'s outputs into a game project: --project DIR [--engine unity|unreal|godot|folder]'),
    '',
    'Other:',
    row('engine', 'Start the embedded local engine and print its address'),
    row('key', 'set | remove | status of the API key file (set reads the key from standard input)'),
    row('webhooks', 'enable [--port N] [--path /p] [--secret-file FILE|-] | disable | status: receive status notifications'),
    '',
    'Global options:',
    '  --base-url URL          service address (ASSET_STUDIO_BASE_URL)',
    '  --legacy-base-url URL   address of the older endpoint variants (ASSET_STUDIO_LEGACY_BASE_URL)',
    '  --api-key-file FILE     read the API key from FILE, or from standard input with "-"',
    '                          (also ASSET_STUDIO_API_KEY, or the file written by "key set")',
    '  --api-key KEY           API key as an argument: visible to other users (ps), prefer the above',
    '  --data-dir DIR          data folder (ASSET_STUDIO_DATA_DIR)',
    '  --json                  machine-readable result on stdout, nothing else there',
    '  --wait                  after a create, wait until the job ends (progress on stderr)',
    '  --timeout SECONDS       with --wait and wait: give up waiting after this long (exit 4)',
    '  --operation-id ID       with a create: replay the journaled operation ID instead of creating again',
    '  --engine-speed N        time factor of the embedded engine (default 10)',
    '',
    'The connection: flags, then the environment, then the app\'s active profile; with none of them,',
    'commands run against the embedded local engine.',
    'Run "asset-studio <command> --help" for the options of a command.',
  ].join('\n');
}

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Runs the CLI as the process. A second Ctrl-C exits at once. */
export async function main(): Promise<void> {
  const interrupt = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interrupt.signal.aborted) process.exit(130);
      interrupt.abort();
    });
  }
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
    stderrIsTTY: process.stderr.isTTY === true,
    readStdin: async () => {
      let text = '';
      for await (const chunk of process.stdin) text += String(chunk);
      return text;
    },
    interrupt: interrupt.signal,
  });
  process.exit();
}

if (import.meta.main) await main();
