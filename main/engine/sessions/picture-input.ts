// The stored picture a session's mesh is made from (generate/), and why it cannot be used when the engine cannot
// read it although the input check took it (WebP: an image the service reads, that this engine does not decode).
import { closeSync, openSync, readSync } from 'node:fs';
import type { EngineContext } from '../context.ts';
import { imageFormatOf } from '../../images/decode-image.ts';
import { describeInput, type InputRef } from '../inputs.ts';

/** The files key of the input's stored bytes; undefined for records from before inputs were stored (their meshes stay seeded). */
export function storedPicture(ref: InputRef | undefined): string | undefined {
  return ref?.file?.key;
}

/** Why the stored picture cannot be made into a mesh, in words for the session's `error`; undefined when it can. */
export function pictureProblem(s: EngineContext, ref: InputRef | undefined): string | undefined {
  const key = storedPicture(ref);
  if (key === undefined || ref === undefined) return undefined;
  const head = Buffer.alloc(16);
  let fd: number | undefined;
  try {
    fd = openSync(s.files.path(key), 'r');
    readSync(fd, head, 0, head.length, 0);
  } catch {
    return undefined; // not there (yet): the file store says so when an output is asked for
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (imageFormatOf(head) === 'webp') {
    return `${describeInput(ref, 'image')} is a WebP image, which the local engine does not decode (the service does): send it as PNG or JPEG.`;
  }
  return undefined;
}
