// A local file's format by its first bytes (main/files/sniff.ts) and a download's (shared/file-format.ts), from
// the one table of signatures (shared/file-signature.ts): they agree, and a wrong input is named for what it is.
import { describe, expect, it } from 'vitest';
import { describeContent, sniff } from '../../main/files/sniff.ts';
import { imageFormatOf } from '../../main/images/decode-image.ts';
import { formatOfBytes } from '../../shared/file-format.ts';

const heads: Record<string, Buffer> = {
  fbx: Buffer.from('Kaydara FBX Binary  \0\x1a\0\xe8\x1c\0\0', 'latin1'),
  glb: Buffer.from('glTF\x02\0\0\0', 'latin1'),
  zip: Buffer.from([0x50, 0x4b, 3, 4, 20, 0]),
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10]),
  jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  webp: Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'),
  gif: Buffer.from('GIF89a\x01\0\x01\0', 'latin1'),
  mp4: Buffer.from('\0\0\0\x20ftypisom\0\0\x02\0', 'latin1'),
};

describe('file signatures', () => {
  it('an input and a download of the same bytes are the same format', () => {
    for (const [kind, head] of Object.entries(heads)) {
      expect(sniff(head), kind).toBe(kind);
      if (kind !== 'gif') expect(formatOfBytes(head), kind).toBe(kind);
    }
    expect(formatOfBytes(heads.gif!)).toBeUndefined(); // not a format of the service's outputs
    expect(Object.keys(heads).filter((k) => imageFormatOf(heads[k]!) !== undefined)).toEqual([
      'png',
      'jpeg',
      'webp',
      'gif',
    ]);
  });

  it('an MP4 given where a model or picture belongs is named as one; a binary FBX cut inside its magic is an FBX', () => {
    expect(describeContent(sniff(heads.mp4!))).toBe('an MP4 video (or another ISO media file)');
    expect(sniff(Buffer.from('Kaydara FBX Bin', 'latin1'))).toBe('fbx');
    expect(formatOfBytes(Buffer.from('Kaydara FBX Bin', 'latin1'))).toBeUndefined();
  });
});
