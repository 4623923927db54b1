// What every command gets: its I/O, parsed values, settings and a way to build the services.
import type { Services, ServiceOptions } from '../app/services.ts';
import type { ConnectionSettings } from '../config/settings.ts';
import type { Values } from './commands.ts';
import { parseNumber } from './values.ts';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  stderrIsTTY: boolean;
  readStdin: () => Promise<string>;
  /** Aborts when the user asks to stop (Ctrl-C). */
  interrupt: AbortSignal;
}

export interface CommandContext {
  io: CliIO;
  values: Values;
  positionals: string[];
  settings: ConnectionSettings;
  /** Secrets to redact from everything printed; commands add the keys they use. */
  secrets: string[];
  services(options?: ServiceOptions): Promise<Services>;
}

export function str(values: Values, key: string): string | undefined {
  const v = values[key];
  return typeof v === 'string' ? v : undefined;
}

/** --timeout in seconds, as milliseconds. */
export function timeoutOf(values: Values): number | undefined {
  const text = str(values, 'timeout');
  return text === undefined ? undefined : parseNumber('timeout', text) * 1000;
}

export function printJson(io: CliIO, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}
