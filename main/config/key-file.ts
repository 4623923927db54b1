// The key file of `asset-studio key set` (`<data folder>/api-key`): the CLI's own key, readable by its owner
// only. The desktop app keeps its keys in the OS keychain instead (profiles.ts).
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileDurableSync } from '../durable/write-file.ts';
import { SettingsError } from './data-dir.ts';

export function keyFilePath(dataDir: string): string {
  return join(dataDir, 'api-key');
}

/**
 * The key saved by `asset-studio key set`, and the service address (and older variants' address) it was set
 * for, when one was given then: it is only ever sent there. Readable by its owner only, or refused.
 */
export interface KeyFileEntry {
  key: string;
  address?: string;
  legacyAddress?: string;
}

export function readKeyFileEntry(dataDir: string): KeyFileEntry | undefined {
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
  // Line 1: the key; then `address <url>` and `legacy-address <url>` (files of older versions hold the key only).
  const [key = '', ...rest] = readFileSync(path, 'utf8').split(/\r?\n/);
  if (key.trim() === '') return undefined;
  const field = (name: string) =>
    rest
      .find((line) => line.startsWith(`${name} `))
      ?.slice(name.length + 1)
      .trim() || undefined;
  const address = field('address');
  const legacyAddress = field('legacy-address');
  return {
    key: key.trim(),
    ...(address !== undefined && { address }),
    ...(legacyAddress !== undefined && { legacyAddress }),
  };
}

/**
 * Saves the key, bound to the addresses given (it is never sent elsewhere), 0600 and durably: a crash leaves
 * the old key or the new one, never an empty file.
 */
export function writeKeyFile(
  dataDir: string,
  key: string,
  bound: { address?: string; legacyAddress?: string } = {},
): string {
  const path = keyFilePath(dataDir);
  const lines = [
    key.trim(),
    ...(bound.address !== undefined ? [`address ${bound.address}`] : []),
    ...(bound.legacyAddress !== undefined ? [`legacy-address ${bound.legacyAddress}`] : []),
  ];
  writeFileDurableSync(path, `${lines.join('\n')}\n`);
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
