// The data folder (flag, environment, then the platform's default). The key file of `asset-studio key set`
// is key-file.ts; the connection itself is resolved by main/app/connection.ts.
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
  flags: {
    baseUrl?: string | undefined;
    legacyBaseUrl?: string | undefined;
    apiKey?: string | undefined;
    dataDir?: string | undefined;
  };
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
export function defaultDataDir(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
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
