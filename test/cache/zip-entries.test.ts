// The files inside a cached zip: listed and read from a real `mesh_url_zip` made by the engine's builder;
// traversal, absolute and missing names refused with a 404 and a message saying why.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { makeArtifact } from '../../main/engine/artifacts.ts';
import { buildZip } from '../../main/engine/outputs/index.ts';
import {
  cachedZipEntries,
  closeZipEntries,
  entryPathOf,
  listZipEntries,
  openCachedZipEntry,
  readZipEntry,
  ZipEntryError,
} from '../../main/cache/zip-entries.ts';
import { cacheEntryPath, parseCachePath, WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';
import { contentTypeOf } from '../../main/serve/content-types.ts';

const dir = mkdtempSync(join(tmpdir(), 'zip-entries-'));
const objZip = join(dir, 'obj.zip');
// The engine's layout: a folder named by the session code with the OBJ, its MTL and its texture.
writeFileSync(objZip, makeArtifact({ type: 'obj-zip', mesh: { seed: 'zip-entries' }, folder: 'SESSION_A' }));
const OBJ = 'SESSION_A/mesh.obj';
const MTL = 'SESSION_A/mesh.mtl';
const PNG = 'SESSION_A/mesh.png';
const odd = join(dir, 'odd.zip');
writeFileSync(
  odd,
  buildZip([
    { name: '../evil.txt', data: Buffer.from('outside') },
    { name: '/etc/passwd', data: Buffer.from('absolute') },
    { name: 'textures/albedo map.jpg', data: Buffer.from([0xff, 0xd8, 0xff]) },
  ]),
);
const notZip = join(dir, 'not.zip');
writeFileSync(notZip, 'this is not a zip');

afterAll(() => {
  closeZipEntries();
  rmSync(dir, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<ZipEntryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ZipEntryError);
  return error as ZipEntryError;
}

describe('zip entries', () => {
  it("lists the OBJ, its MTL and its texture from the engine's mesh_url_zip", async () => {
    const entries = await listZipEntries(objZip);
    expect(entries.map((e) => e.name)).toEqual([OBJ, MTL, PNG]);
    for (const e of entries) expect(e.size).toBeGreaterThan(0);
  });

  it('reads one entry, inflated, with its content type by extension', async () => {
    const obj = await readZipEntry(objZip, OBJ);
    expect(obj.contentType).toBe('model/obj'); // the one table's type, as the engine serves an OBJ (main/serve)
    const body = await text(obj.stream);
    expect(body.length).toBe(obj.size);
    expect(body).toMatch(/^# .*\nmtllib mesh\.mtl\n/);
    const mtl = await text((await readZipEntry(objZip, MTL)).stream);
    expect(mtl).toContain('map_Kd mesh.png');
    const png = await readZipEntry(objZip, PNG);
    expect(png.contentType).toBe('image/png');
    const bytes = Buffer.concat(await png.stream.toArray());
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(contentTypeOf('a/b.JPG')).toBe('image/jpeg');
    expect(contentTypeOf('notes')).toBe('application/octet-stream');
  });

  it('refuses traversal and absolute names, asked or stored, with a 404 that says why', async () => {
    for (const name of [
      '../model.obj',
      'a/../../model.obj',
      '/model.obj',
      'C:/model.obj',
      'a\\..\\model.obj',
      '',
      './model.obj',
    ]) {
      const error = await refusal(readZipEntry(objZip, name));
      expect(error.status).toBe(404);
      expect(error.message).toMatch(/is not a file of the zip: the path/);
    }
    // Entries whose own names could leave the archive are not listed nor served; the others are.
    expect((await listZipEntries(odd)).map((e) => e.name)).toEqual(['textures/albedo map.jpg']);
    expect((await refusal(readZipEntry(odd, '../evil.txt'))).status).toBe(404);
    expect((await refusal(readZipEntry(odd, 'etc/passwd'))).message).toContain('has no file "etc/passwd"');
    expect((await readZipEntry(odd, 'textures/albedo map.jpg')).contentType).toBe('image/jpeg');
  });

  it('says which files a zip has when the name asked for is missing', async () => {
    const error = await refusal(readZipEntry(objZip, 'SESSION_A/mesh.jpg'));
    expect(error.status).toBe(404);
    expect(error.message).toBe(`The zip has no file "SESSION_A/mesh.jpg" (it holds ${OBJ}, ${MTL}, ${PNG}).`);
  });

  it('refuses a file that is not a zip, and an output the cache does not hold', async () => {
    expect((await refusal(listZipEntries(notZip))).status).toBe(400);
    const cache = {
      open: (sessionId: string, kind: string) => (sessionId === 'SESSION_A' && kind === 'zip' ? objZip : undefined),
    };
    expect((await cachedZipEntries(cache, 'SESSION_A', 'zip')).length).toBe(3);
    expect(await text((await openCachedZipEntry(cache, 'SESSION_A', 'zip', MTL)).stream)).toContain('newmtl');
    const missing = await refusal(openCachedZipEntry(cache, 'SESSION_B', 'zip', 'model.obj'));
    expect(missing.status).toBe(404);
    expect(missing.message).toContain('The zip output of SESSION_B is not in the cache');
  });

  it('round-trips entry paths through the URL, each segment encoded', () => {
    const path = cacheEntryPath('SESSION_1', 'preview_zip', 'textures/albedo map#1.png');
    expect(path).toBe('/cache/SESSION_1/preview_zip/textures/albedo%20map%231.png');
    const parsed = parseCachePath(path.slice(WEB_PROTOCOL.cachePrefix.length))!;
    expect(parsed).toMatchObject({ sessionId: 'SESSION_1', kind: 'preview_zip' });
    expect(entryPathOf(parsed.entry)).toBe('textures/albedo map#1.png');
    expect(entryPathOf(parseCachePath('SESSION_1/zip')!.entry)).toBeUndefined();
    // An encoded slash cannot smuggle a ".." past the check: the decoded path is checked as a whole.
    expect(entryPathOf(['..%2Fmodel.obj'])).toBe('../model.obj');
    expect(entryPathOf(['%E0%A4%A'])).toBe('\0');
  });
});
