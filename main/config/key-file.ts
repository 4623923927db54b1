// The key file of `asset-studio key set` (`<data folder>/api-key`): the CLI's own key, readable by its owner
// only. The desktop app keeps its keys in the OS keychain instead (profiles.ts).
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileDurableSync } from '../durable/write-file.ts';
import { SettingsError } from './data-dir.ts';

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

/** Saves the key, 0600 and durably: a crash leaves the old key or the new one, never an empty file. */
export function writeKeyFile(dataDir: string, key: string): string {
  const path = keyFilePath(dataDir);
  writeFileDurableSync(path, `${key.trim()}\n`);
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
