// The batch dialog's check of its files before the quote (#33: a batch quoted 80 credits and spent 65, its
// quote counting by names files that main then refused): each file is handed to main (its path in the desktop
// app; uploaded to this computer's web host in a browser, once: the batch then uses that upload) and inspected
// there as the batch will inspect it (batch.check). The quote counts only what will be sent; a refused file
// says why. Nothing reaches the service before Submit.
import { useEffect, useState } from 'preact/hooks';
import { getTransport, type FileRef } from '../bridge/index.ts';
import type { OfferedFile } from './batch.ts';
import { droppedKind, REFUSED_BY_NAME } from './dropped-kind.ts';
import { toShownError } from './util.ts';

/** What a file of the dialog becomes: checking, a picture or a mesh that will be sent, or refused (with why). */
export type FileVerdict =
  | { kind: 'checking' }
  | { kind: 'image' | 'mesh'; ref: FileRef }
  | { kind: 'refused'; why: string; ref?: FileRef };

export interface BatchCheckState {
  verdicts: FileVerdict[];
  /** Some files are still being checked. */
  checking: boolean;
  /** The check could not be made (the files are then judged by name, as the batch will still check them). */
  error?: string;
}

/** Checks the offered files once when the dialog opens; cancelled when it closes. */
export function useBatchCheck(files: readonly OfferedFile[]): BatchCheckState {
  const [state, setState] = useState<BatchCheckState>(() => ({
    verdicts: files.map((f) =>
      droppedKind(f) === 'other' ? { kind: 'refused', why: REFUSED_BY_NAME } : { kind: 'checking' },
    ),
    checking: files.some((f) => droppedKind(f) !== 'other'),
  }));
  useEffect(() => {
    const stop = new AbortController();
    void check(files, stop.signal).then((s) => stop.signal.aborted || setState(s));
    return () => stop.abort();
  }, [files]);
  return state;
}

async function check(files: readonly OfferedFile[], signal: AbortSignal): Promise<BatchCheckState> {
  const transport = getTransport();
  const verdicts: FileVerdict[] = files.map(() => ({ kind: 'checking' }));
  // Each file main can read: its path, or an upload to this computer's host (at most two at once).
  const refs: (FileRef | undefined)[] = new Array(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length && !signal.aborted) {
      const i = next++;
      const f = files[i]!;
      if (droppedKind(f) === 'other') {
        verdicts[i] = { kind: 'refused', why: REFUSED_BY_NAME };
        continue;
      }
      try {
        refs[i] = f.ref ?? (await transport.fileRef(f.file!, undefined, signal));
      } catch (e) {
        verdicts[i] = { kind: 'refused', why: `${f.name} could not be handed to the app: ${toShownError(e).message}` };
      }
    }
  };
  await Promise.all([worker(), worker()]);
  // A path is read by the desktop app's main only (the web host takes uploads): such a file is judged by its name
  // here, and checked when the batch starts, as before.
  const readable = (ref: FileRef) => transport.kind === 'electron' || 'uploadId' in ref;
  refs.forEach((ref, i) => {
    if (ref && !readable(ref)) verdicts[i] = byName(files[i]!, ref);
  });
  const handed = refs.flatMap((ref, i) => (ref && readable(ref) ? [{ ref, i }] : []));
  if (handed.length === 0) return { verdicts, checking: false };
  try {
    const { files: checked } = await transport.api.call('batch.check', { files: handed.map((h) => h.ref) });
    handed.forEach(({ ref, i }, at) => {
      const c = checked[at]!;
      verdicts[i] = 'refused' in c ? { kind: 'refused', why: c.refused, ref } : { kind: c.kind, ref };
    });
    return { verdicts, checking: false };
  } catch (e) {
    // Judged by name then: the batch still checks each file and reports a refused one in the queue.
    for (const { ref, i } of handed) verdicts[i] = byName(files[i]!, ref);
    return {
      verdicts,
      checking: false,
      error: `The files could not be checked before the quote (${toShownError(e).message}): it counts them by name; a refused one is reported in the queue.`,
    };
  }
}

/** What a file becomes by its name alone (main checks its content when the batch starts). */
function byName(file: OfferedFile, ref: FileRef): FileVerdict {
  const kind = droppedKind(file);
  return kind === 'other' ? { kind: 'refused', why: REFUSED_BY_NAME, ref } : { kind, ref };
}
