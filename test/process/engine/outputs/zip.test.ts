import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildObj } from '../../../../main/engine/outputs/obj.ts';
import { renderTexture } from '../../../../main/engine/outputs/pictures.ts';
import { buildZip, type ZipEntry } from '../../../../main/formats/zip.ts';

function hasUnzip(): boolean {
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Reads every entry through the end record and the central directory, checking sizes and CRCs. */
function readZip(zip: Buffer): ZipEntry[] {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  expect(at + zip.readUInt32LE(end + 12)).toBe(end);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    expect(zip.toString('utf8', local + 30, local + 30 + zip.readUInt16LE(local + 26))).toBe(name);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    expect(method).toBe(8);
    const data = inflateRawSync(zip.subarray(start, start + compressedSize));
    expect(data.length).toBe(size);
    expect(crc32(data)).toBe(crc);
    entries.push({ name, data });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

describe('buildZip', () => {
  const { obj, mtl } = buildObj({ seed: 'zip', texture: true });
  const entries: ZipEntry[] = [
    { name: 'model.obj', data: Buffer.from(obj) },
    { name: 'model.mtl', data: Buffer.from(mtl) },
    { name: 'model.png', data: renderTexture('zip') },
    { name: 'empty.txt', data: Buffer.alloc(0) },
  ];

  it('round-trips entries through the central directory', () => {
    expect(readZip(buildZip(entries))).toEqual(entries);
    expect(readZip(buildZip([]))).toEqual([]);
  });

  it.skipIf(!hasUnzip())('passes unzip -t', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-test-'));
    try {
      const file = join(dir, 'bundle.zip');
      writeFileSync(file, buildZip(entries));
      const out = execFileSync('unzip', ['-t', file], { encoding: 'utf8' });
      expect(out).toContain('No errors detected');
      for (const { name } of entries) expect(out).toContain(`testing: ${name}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is deterministic', () => {
    expect(buildZip(entries).equals(buildZip(entries))).toBe(true);
  });
});
