import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Output } from '../../main/engine/artifacts.ts';
import { FileStore } from '../../main/engine/file-store.ts';
import { signedFileUrl } from '../../main/engine/files.ts';
import { loadSigner } from '../../main/engine/signing.ts';

let dir: string;
let files: FileStore;
const alone: Output = { key: 'SESSION_a/model.glb', recipe: { type: 'made' } as Output['recipe'] };
const inFolder: Output = { key: 'SESSION_a/obj/model.obj', recipe: { type: 'made' } as Output['recipe'] };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signed-file-url-'));
  files = new FileStore(join(dir, 'files'), await loadSigner(dir), 60_000);
  files.baseUrl = 'http://127.0.0.1:4100';
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("signedFileUrl: one of this engine's file URLs, by its signature", () => {
  it('names the file of a URL it signed, alone or in a folder, whatever the host and port', () => {
    expect(signedFileUrl(new URL(files.url(alone)), files)?.key).toBe(alone.key);
    expect(signedFileUrl(new URL(files.url(inFolder)), files)?.key).toBe(inFolder.key);
    const moved = new URL(files.url(alone));
    moved.port = '4999';
    expect(signedFileUrl(moved, files)?.key).toBe(alone.key);
  });

  it('still names it once expired (the caller says what that means)', () => {
    const old = new URL(files.url(alone, Date.now() - 3_600_000));
    const named = signedFileUrl(old, files);
    expect(named?.key).toBe(alone.key);
    expect(named!.expires * 1000).toBeLessThan(Date.now());
  });

  it('refuses a changed signature, a changed expiry, another key and URLs that are not file URLs', () => {
    const url = new URL(files.url(alone));
    const forged = new URL(url);
    forged.searchParams.set('sig', 'x'.repeat(43));
    expect(signedFileUrl(forged, files)).toBeUndefined();
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 1));
    expect(signedFileUrl(later, files)).toBeUndefined();
    const noExpiry = new URL(url);
    noExpiry.searchParams.set('expires', 'soon');
    expect(signedFileUrl(noExpiry, files)).toBeUndefined();
    const other = new URL(url);
    other.pathname = '/files/SESSION_a/other.glb';
    expect(signedFileUrl(other, files)).toBeUndefined();
    expect(signedFileUrl(new URL('https://example.com/a.png'), files)).toBeUndefined();
  });
});
