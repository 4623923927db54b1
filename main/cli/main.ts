// `asset-studio`: the command line of Asset Studio. Every endpoint of the service, the local engine,
// and the API key file. Exit codes: 0 done, 1 other failure or cancelled, 2 bad usage or a request
// rejected before sending, 3 the service answered with an error (or the job failed), 4 timeout, 5 network.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { ENDPOINTS } from '../../shared/contract/index.ts';
import { ApiError } from '../api/errors.ts';
import { redactSecrets } from '../api/redact.ts';
import { createServices, localEngineKey } from '../app/services.ts';
import { keyFilePath, removeKeyFile, resolveSettings, SettingsError, writeKeyFile, type ConnectionSettings } from '../config/settings.ts';
import { startEngine } from '../engine/engine.ts';
import { refOfCreate } from '../jobs/resources.ts';
import { waitForFinal, WaitTimeoutError } from '../jobs/wait.ts';
import { ENDPOINT_COMMANDS, type EndpointCommand, type Values } from './commands.ts';
import { formatResult, progressLine } from './format.ts';
import { parseNumber, UsageError } from './values.ts';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  stderrIsTTY: boolean;
  readStdin: () => Promise<string>;
  /** Resolves when the user asks to stop (Ctrl-C); used by long-running commands. */
  interrupted: Promise<void>;
}

const GLOBAL_OPTIONS = {
  'base-url': { type: 'string' },
  'legacy-base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  wait: { type: 'boolean' },
  timeout: { type: 'string' },
  'engine-speed': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

const ENGINE_OPTIONS = { port: { type: 'string' }, 'legacy-port': { type: 'string' } } as const satisfies ParseArgsOptionsConfig;

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const secrets: string[] = [];
  const say = (text: string) => io.stderr(`${redactSecrets(text, secrets)}\n`);
  try {
    const { name, rest } = splitCommand(argv);
    if (name === undefined || name === 'help') {
      io.stdout(`${usage()}\n`);
      return name === undefined && !argv.includes('--help') && !argv.includes('-h') ? 2 : 0;
    }
    if (name === 'version' || name === '--version') {
      io.stdout(`${readVersion()}\n`);
      return 0;
    }
    const command = ENDPOINT_COMMANDS.find((c) => c.name === name);
    const extra: ParseArgsOptionsConfig = command?.options ?? (name === 'engine' ? ENGINE_OPTIONS : {});
    if (!command && name !== 'engine' && name !== 'key') throw new UsageError(`unknown command "${name}". Run "asset-studio help" to see the commands.`);
    const parsed = parseArgs({ args: rest, options: { ...GLOBAL_OPTIONS, ...extra }, allowPositionals: true, strict: true });
    const values = parsed.values as Values;
    if (values.help) {
      io.stdout(`${command ? commandUsage(command) : usage()}\n`);
      return 0;
    }
    const settings = resolveSettings({
      flags: { baseUrl: str(values, 'base-url'), legacyBaseUrl: str(values, 'legacy-base-url'), apiKey: str(values, 'api-key'), dataDir: str(values, 'data-dir') },
      env: io.env,
    });
    if (settings.apiKey) secrets.push(settings.apiKey);
    if (name === 'key') return await keyCommand(parsed.positionals, settings, io);
    const engineSpeed = str(values, 'engine-speed') === undefined ? undefined : parseNumber('engine-speed', str(values, 'engine-speed')!);
    if (name === 'engine') return await engineCommand(values, settings, engineSpeed, io);
    return await endpointCommand(command!, parsed.positionals, values, settings, engineSpeed, io, secrets);
  } catch (error) {
    return report(error, say);
  }
}

function report(error: unknown, say: (text: string) => void): number {
  if (error instanceof ApiError || error instanceof UsageError || error instanceof SettingsError || error instanceof WaitTimeoutError) {
    say(`error: ${error.message}`);
    return error.exitCode;
  }
  const code = (error as { code?: string }).code;
  if (code?.startsWith('ERR_PARSE_ARGS')) {
    say(`error: ${(error as Error).message}. Run "asset-studio help" to see the options.`);
    return 2;
  }
  say(`error: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
}

async function endpointCommand(
  command: EndpointCommand,
  positionals: string[],
  values: Values,
  settings: ConnectionSettings,
  engineSpeed: number | undefined,
  io: CliIO,
  secrets: string[],
): Promise<number> {
  const call = command.build(positionals, values);
  const timeoutText = str(values, 'timeout');
  const timeoutMs = timeoutText === undefined ? undefined : parseNumber('timeout', timeoutText) * 1000;
  if (values.wait && !command.waits) throw new UsageError(`--wait does not apply to "${command.name}": it does not start a job that can be followed.`);
  const services = await createServices(settings, { ...(engineSpeed !== undefined && { engineSpeed }) });
  if (services.mode === 'embedded') secrets.push(localEngineKey(settings.dataDir));
  try {
    let data: unknown = await services.client.call(command.endpoint, call);
    let exit = 0;
    if (values.wait) {
      const ref = refOfCreate(command.endpoint, call, data);
      if (ref) {
        let lastLine = '';
        const seen = await waitForFinal(services.client, ref, {
          ...(timeoutMs !== undefined && { timeoutMs }),
          onUpdate: (o) => {
            if (!io.stderrIsTTY || values.json) return;
            const line = progressLine(ref.id, o.status.state, o.status.raw, o.status.percent);
            if (line !== lastLine) io.stderr(`\r\x1b[2K${line}`);
            lastLine = line;
          },
        });
        if (io.stderrIsTTY && !values.json) io.stderr('\n');
        data = seen.value;
        if (seen.status.state === 'failed') {
          io.stderr(`error: ${ref.id} ended ${seen.status.raw}: the service could not finish the job. Check the input and create it again.\n`);
          exit = 3;
        }
      }
    }
    const shown = values.wait ? resultEndpointAfterWait(command) : command.endpoint;
    io.stdout(`${values.json ? JSON.stringify(data, null, 2) : formatResult(shown, data)}\n`);
    return exit;
  } finally {
    await services.close();
  }
}

/** After --wait the data shown is the resource as read back, not the create's answer. */
function resultEndpointAfterWait(command: EndpointCommand) {
  const map = {
    createImageTo3d: 'getImageTo3d', createImageTo3dLegacy: 'getMesh', submitSpin: 'getMesh', preview: 'getMesh', refine: 'getMesh',
    createTextToImage: 'getTextToImage', uploadAnimationMesh: 'getAnimation', submitTextAnimations: 'getAnimation', createRetopology: 'getV3Session',
  } as const;
  return (map as Partial<Record<string, keyof typeof ENDPOINTS>>)[command.endpoint] ?? command.endpoint;
}

async function engineCommand(values: Values, settings: ConnectionSettings, speed: number | undefined, io: CliIO): Promise<number> {
  const port = str(values, 'port');
  const legacyPort = str(values, 'legacy-port');
  const keyFile = join(settings.dataDir, 'engine-key');
  const engine = await startEngine({
    dataDir: join(settings.dataDir, 'engine'),
    apiKey: localEngineKey(settings.dataDir),
    ...(port !== undefined && { port: parseNumber('port', port) }),
    ...(legacyPort !== undefined && { legacyPort: parseNumber('legacy-port', legacyPort) }),
    ...(speed !== undefined && { speed }),
  });
  if (values.json) {
    io.stdout(`${JSON.stringify({ url: engine.url, legacyUrl: engine.legacyUrl, keyFile })}\n`);
  } else {
    io.stdout(
      [
        `Local engine listening on ${engine.url} (legacy address ${engine.legacyUrl}).`,
        'Use it from another shell with:',
        `  export ASSET_STUDIO_BASE_URL=${engine.url} ASSET_STUDIO_LEGACY_BASE_URL=${engine.legacyUrl}`,
        `  export ASSET_STUDIO_API_KEY="$(cat '${keyFile}')"`,
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
  }
  await io.interrupted;
  await engine.close();
  return 0;
}

async function keyCommand(positionals: string[], settings: ConnectionSettings, io: CliIO): Promise<number> {
  const action = positionals[0];
  if (action === 'set') {
    const key = (await io.readStdin()).split(/\r?\n/)[0]?.trim() ?? '';
    if (key === '') throw new UsageError('no key given: pipe it on standard input, e.g. asset-studio key set < key.txt');
    io.stdout(`API key saved to ${writeKeyFile(settings.dataDir, key)} (readable by you only).\n`);
    return 0;
  }
  if (action === 'remove') {
    io.stdout(removeKeyFile(settings.dataDir) ? 'API key removed.\n' : `No API key file at ${keyFilePath(settings.dataDir)}.\n`);
    return 0;
  }
  if (action === 'status') {
    io.stdout(settings.apiKey ? 'An API key is configured (not shown).\n' : 'No API key is configured: commands use the embedded local engine.\n');
    return 0;
  }
  throw new UsageError('usage: asset-studio key set|remove|status');
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

function str(values: Values, key: string): string | undefined {
  const v = values[key];
  return typeof v === 'string' ? v : undefined;
}

function commandUsage(c: EndpointCommand): string {
  const options = Object.entries(c.options).map(([k, o]) => `[--${k}${o.type === 'string' ? ' VALUE' : ''}]`);
  return `asset-studio ${c.name} ${[...c.args, ...options].join(' ')}${c.waits ? ' [--wait [--timeout SECONDS]]' : ''}\n  ${ENDPOINTS[c.endpoint].summary}.`;
}

export function usage(): string {
  return [
    'Usage: asset-studio <command> [arguments] [options]',
    '',
    'Commands:',
    ...ENDPOINT_COMMANDS.map((c) => `  ${c.name.padEnd(18)}${ENDPOINTS[c.endpoint].summary}`),
    `  ${'engine'.padEnd(18)}Start the embedded local engine and print its address`,
    `  ${'key'.padEnd(18)}set | remove | status of the API key file (set reads the key from standard input)`,
    '',
    'Global options:',
    '  --base-url URL          service address (ASSET_STUDIO_BASE_URL)',
    '  --legacy-base-url URL   address of the older endpoint variants (ASSET_STUDIO_LEGACY_BASE_URL)',
    '  --api-key KEY           API key (ASSET_STUDIO_API_KEY, or the file written by "key set")',
    '  --data-dir DIR          data folder (ASSET_STUDIO_DATA_DIR)',
    '  --json                  machine-readable result on stdout, nothing else there',
    '  --wait                  after a create, wait until the job ends (progress on stderr)',
    '  --timeout SECONDS       with --wait: give up waiting after this long (exit 4)',
    '  --engine-speed N        time factor of the embedded engine (default 10)',
    '',
    'With no address and no key configured, commands run against the embedded local engine.',
    'Run "asset-studio <command> --help" for the options of a command.',
  ].join('\n');
}

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Runs the CLI as the process. */
export async function main(): Promise<void> {
  const interrupted = new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
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
    interrupted,
  });
}

if (import.meta.main) await main();
