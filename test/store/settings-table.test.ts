import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeEach, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { openDatabase, type Store } from '../../main/store/database.ts';
import { tempDir } from './temp.ts';

const Concurrency = z.number().int().min(1).max(8);
const warn = vi.fn<(message: string) => void>();
let store: Store;
beforeEach(() => {
  warn.mockClear();
  store = openDatabase(':memory:', { warn });
  return () => store.close();
});

it('stores JSON values and validates them when read', () => {
  expect(store.settings.get('concurrency', Concurrency)).toBeUndefined();
  store.settings.set('concurrency', 4);
  store.settings.set('export', { folder: '/games/assets', format: 'glb' });
  expect(store.settings.get('concurrency', Concurrency)).toBe(4);
  expect(store.settings.get('export', z.object({ folder: z.string(), format: z.enum(['glb', 'fbx']) }))).toEqual({
    folder: '/games/assets',
    format: 'glb',
  });
  store.settings.set('concurrency', 6);
  expect(store.settings.get('concurrency', Concurrency)).toBe(6);
  expect(store.settings.all()).toEqual({ concurrency: 6, export: { folder: '/games/assets', format: 'glb' } });
  expect(warn).not.toHaveBeenCalled();
});

it('reads an invalid stored value as undefined, warns, and keeps it', () => {
  store.settings.set('concurrency', 99);
  expect(store.settings.get('concurrency', Concurrency)).toBeUndefined();
  expect(warn).toHaveBeenCalledExactlyOnceWith(
    expect.stringMatching(/^The stored setting "concurrency" is invalid \(.+\); the default is used/),
  );
  expect(store.settings.all()).toEqual({ concurrency: 99 });
});

it('warns about a stored value that is not JSON', () => {
  const path = join(tempDir(), 'a.db');
  const onDisk = openDatabase(path, { warn });
  const raw = new DatabaseSync(path);
  raw.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run('theme', '{not json');
  raw.close();
  expect(onDisk.settings.get('theme', z.string())).toBeUndefined();
  expect(onDisk.settings.all()).toEqual({});
  expect(warn).toHaveBeenCalledWith(
    'The stored setting "theme" is not valid JSON; the default is used until it is set again.',
  );
  onDisk.close();
});

it('deletes, and refuses values that are not JSON', () => {
  store.settings.set('theme', 'dark');
  expect(store.settings.delete('theme')).toBe(true);
  expect(store.settings.delete('theme')).toBe(false);
  expect(store.settings.get('theme', z.string())).toBeUndefined();
  expect(() => store.settings.set('theme', undefined)).toThrow(/use delete\(\)/);
});
