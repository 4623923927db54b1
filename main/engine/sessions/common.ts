// Helpers shared by the session modules: ownership lookups, inputs, refreshing a record.
import { dataUriMime, isHttpUrl } from '../../../shared/contract/index.ts';
import type { Output } from '../artifacts.ts';
import type { EngineContext } from '../context.ts';
import { HttpError } from '../http.ts';
import type { InputRef } from '../inputs.ts';
import type { Stepped } from '../progress.ts';
import { recompressUpload } from '../recompress-upload.ts';

/** A record of the caller's account, or 404. */
export function findOwned<T extends { user_id: string }>(
  table: Record<string, T>,
  id: string,
  userId: string,
  what = 'Session',
): T {
  const record = Object.hasOwn(table, id) ? table[id] : undefined;
  if (record === undefined || record.user_id !== userId) throw new HttpError(404, `${what} ${id} not found`);
  return record;
}

/** Keeps a new record in its table and saves the engine's state. */
export async function keepNew<T extends object>(
  s: { save(...changed: object[]): Promise<void> },
  table: Record<string, T>,
  id: string,
  rec: T,
): Promise<void> {
  table[id] = rec;
  await s.save(rec);
}

/** An input (image or mesh): the URL the client gave, or the bytes it sent, stored as a file; see inputs.ts. */
export type { InputRef };

const IMAGE_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** Data URIs are stored as files (and answered as signed URLs, as the service does) so the state stays small. */
export async function storeImage(s: EngineContext, owner: string, name: string, value: string): Promise<InputRef> {
  if (isHttpUrl(value)) return { url: value };
  const mime = dataUriMime(value) ?? 'application/octet-stream';
  const file: Output = { key: `${owner}/${name}.${IMAGE_EXTENSIONS[mime] ?? 'bin'}`, recipe: { type: 'input' } };
  const bytes = Buffer.from(value.slice(value.indexOf(',') + 1), 'base64');
  await s.files.put(file.key, s.uploadedImages === 'recompressed' ? await recompressUpload(bytes) : bytes);
  return { file };
}

export const inputUrl = (s: EngineContext, ref: InputRef, now: number): string => ref.url ?? s.files.url(ref.file, now);

/**
 * What comes before settling a record whose running step needs `input`: while the input is being read,
 * nothing ends (the step keeps its last running status); an input that cannot be used ends the step at once,
 * failed by `fail` with the input's message. Undefined when the steps settle as usual (`gate ?? settle(...)`),
 * else whether the record changed.
 */
export function inputGate<T extends Stepped>(
  rec: T,
  input: InputRef | undefined,
  fail: (rec: T, message: string, at: number) => void,
): boolean | undefined {
  if (rec.step === undefined || input === undefined) return undefined;
  if (input.reading === true) return false;
  if (input.error === undefined) return undefined;
  delete rec.step;
  fail(rec, input.error, input.settled_at ?? Date.now());
  return true;
}

/**
 * Settles a record's steps, persists when something changed, and registers its files (built on first download).
 * `records`: the records settling may change (the record, and others it changes: its assets, its style).
 */
export async function refresh(
  s: EngineContext,
  records: () => object[],
  settleRecord: () => boolean,
  files: () => Iterable<Output | undefined>,
): Promise<void> {
  if (settleRecord()) await s.save(...records());
  s.files.register(files());
}
