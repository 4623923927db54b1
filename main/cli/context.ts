// What every command gets: its I/O, parsed values, settings and a way to build the services.
import { existsSync } from 'node:fs';
import { resolveConnection, savedProfile, type ResolvedConnection, type SavedProfile } from '../app/connection.ts';
import type { ReadClient } from '../app/read-client.ts';
import type { Services, ServiceOptions } from '../app/services.ts';
import { ProfileStore, SessionKeyVault } from '../config/profiles.ts';
import { resolveDataDir, type ConnectionSettings } from '../config/data-dir.ts';
import { readKeyFileEntry } from '../config/key-file.ts';
import { databasePath } from '../store/database-file.ts';
import type { Values } from './commands.ts';
import { readSecretOption } from './secret-options.ts';
import { parseNumber } from './values.ts';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /**
   * Standard error as it is, for the CLI's own terminal control (progress redrawn on a terminal): what it
   * writes is not neutralised (terminal-text.ts), so text from outside must be neutralised first. Default: stderr.
   */
  terminal?: (text: string) => void;
  env: NodeJS.ProcessEnv;
  stderrIsTTY: boolean;
  readStdin: () => Promise<string>;
  /** Aborts when the user asks to stop (Ctrl-C). */
  interrupt: AbortSignal;
  /**
   * Rejects with an error thrown where no command catches it (a timer, a stream): the command ends with it,
   * reported like any failure (with --json, as JSON on stdout), never as a stack trace. The launcher's main().
   */
  uncaught?: Promise<never>;
}

export interface CommandContext {
  io: CliIO;
  values: Values;
  positionals: string[];
  settings: ConnectionSettings;
  /** Secrets to redact from everything printed; commands add the keys they use. */
  secrets: string[];
  services(options?: ServiceOptions): Promise<Services>;
  /** A client for reads only (main/app/read-client.ts): against a service, none of the database, tracker or cache. */
  readClient(): Promise<ReadClient>;
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

/**
 * The connection of a command (main/app/connection.ts): --base-url / --api-key-file (or --api-key, with a
 * warning), then ASSET_STUDIO_BASE_URL / ASSET_STUDIO_API_KEY, then the app's active profile, then the
 * embedded engine. Every key it meets is added to `secrets`, so nothing printed shows it.
 */
export async function resolveCliConnection(values: Values, io: CliIO, secrets: string[]): Promise<ResolvedConnection> {
  const envKey = io.env.ASSET_STUDIO_API_KEY?.trim();
  if (envKey) secrets.push(envKey);
  const key = await readSecretOption(values, io, {
    value: 'api-key',
    alternatives: 'ASSET_STUDIO_API_KEY, or "asset-studio key set"',
  });
  if (key) secrets.push(key.value);
  const dataDir = resolveDataDir({ flags: { dataDir: str(values, 'data-dir') }, env: io.env });
  // The saved key file is read only when no key is given (a file others can read is refused with the fix).
  const keyFile = key || envKey ? undefined : readKeyFileEntry(dataDir);
  // The app's saved profile counts only when no address is given (flag or environment): not read otherwise.
  const addressGiven = Boolean(str(values, 'base-url')?.trim() || io.env.ASSET_STUDIO_BASE_URL?.trim());
  const connection = resolveConnection({
    dataDir,
    flags: {
      baseUrl: str(values, 'base-url'),
      legacyBaseUrl: str(values, 'legacy-base-url'),
      ...(key && { apiKey: key.value, apiKeyFrom: key.from }),
    },
    env: io.env,
    saved: addressGiven ? undefined : await readSavedProfile(dataDir),
    keyFile: keyFile?.key,
    keyFileBound: keyFile,
  });
  if (connection.apiKey) secrets.push(connection.apiKey);
  if (connection.note?.level === 'warning') io.stderr(`warning: ${connection.note.text}\n`);
  return connection;
}

/** The app's active profile in this data folder (its keychain is the desktop app's: no key from there). */
async function readSavedProfile(dataDir: string): Promise<SavedProfile | undefined> {
  const path = databasePath(dataDir);
  if (!existsSync(path)) return undefined;
  const { openDatabase } = await import('../store/database.ts'); // node:sqlite and the repositories, when needed
  const store = openDatabase(path);
  try {
    return savedProfile(new ProfileStore(store.settings, { session: new SessionKeyVault() }));
  } finally {
    store.close();
  }
}
