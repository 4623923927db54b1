// The data folder (flag, environment, then the platform's default) and the key file of `asset-studio key set`.
// The connection itself is resolved by main/app/connection.ts.
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../shared/errors.ts';

export interface ConnectionSettings {
  /** Undefined: no service configured, the embedded local engine is used. */
  baseUrl?: string | undefined;
  legacyBaseUrl?: string | undefined;
  apiKey?: string | undefined;
  dataDir: string;
}

export interface SettingsSources {
  flags: { baseUrl?: string | undefined; legacyBaseUrl?: string | undefined; apiKey?: string | undefined; dataDir?: string | undefined };
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
}

/** A setting or the key file cannot be used; the message says which and what to do. */
export class SettingsError extends AppError<'settings' | 'connection'> {
  constructor(message: string, code: 'settings' | 'connection' = 'settings') {
    super(code, message);
  }
}

/** The per-user data folder: database, download cache, the embedded engine's state. */
export function defaultDataDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Asset Studio');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Asset Studio');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'asset-studio');
}

function pick(src: SettingsSources, flag: string | undefined, name: string): string | undefined {
  const value = flag ?? src.env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function resolveDataDir(src: SettingsSources): string {
  return pick(src, src.flags.dataDir, 'ASSET_STUDIO_DATA_DIR') ?? defaultDataDir(src.env, src.platform, src.home);
}

export function keyFilePath(dataDir: string): string {
  return join(dataDir, 'api-key');
}

/** The key saved by `asset-studio key set`: readable by its owner only, or refused. */
export function readKeyFile(dataDir: string): string | undefined {
  const path = keyFilePath(dataDir);
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return undefined;
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new SettingsError(`The API key file ${path} can be read by other users. Run: chmod 600 "${path}"`);
  }
  const key = readFileSync(path, 'utf8').trim();
  return key === '' ? undefined : key;
}

export function writeKeyFile(dataDir: string, key: string): string {
  const path = keyFilePath(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(path, `${key.trim()}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

export function hasKeyFile(dataDir: string): boolean {
  try {
    return statSync(keyFilePath(dataDir)).isFile();
  } catch {
    return false;
  }
}

export function removeKeyFile(dataDir: string): boolean {
  const path = keyFilePath(dataDir);
  try {
    statSync(path);
  } catch {
    return false;
  }
  rmSync(path);
  return true;
}
