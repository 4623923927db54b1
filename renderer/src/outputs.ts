// Cached outputs of sessions (cache.outputs), shared by the library, the job page and the older flow,
// kept fresh by `cache.output` events; the files inside a cached zip (cache.entries) for the viewer.
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { CachedOutput, CommandOutput } from '../../shared/bridge/contract.ts';
import { jobModel } from '../../shared/kinds/job-model.ts';
import { formatOutputKind, isPicture, parseOutputKind } from '../../shared/output-kind.ts';
import type { UrlSource } from '../viewer/index.ts';
import { getBridge } from '../bridge/index.ts';

const known = new Map<string, CachedOutput[]>();
const loading = new Map<string, Promise<void>>();
/** Sessions with an event during their read: the answer may be older than the event, so it is read again. */
const stale = new Set<string>();
const listeners = new Map<string, Set<() => void>>();
let subscribed = false;

function notify(sessionId: string) {
  for (const l of listeners.get(sessionId) ?? []) l();
}

function ensureSubscribed() {
  if (subscribed) return;
  subscribed = true;
  getBridge().on('cache.output', (output) => {
    if (loading.has(output.sessionId)) stale.add(output.sessionId);
    const list = known.get(output.sessionId);
    if (!list) return; // loaded in full when first asked for
    const i = list.findIndex((o) => o.kind === output.kind);
    known.set(output.sessionId, i < 0 ? [...list, output] : list.map((o, j) => (j === i ? output : o)));
    notify(output.sessionId);
  });
}

export function loadOutputs(sessionId: string, force = false): Promise<void> {
  ensureSubscribed();
  const pending = loading.get(sessionId);
  if (pending && !force) return pending;
  const p = getBridge()
    .call('cache.outputs', { sessionId })
    .then((r) => {
      known.set(sessionId, r.outputs);
      notify(sessionId);
    })
    .catch(() => {
      if (!known.has(sessionId)) known.set(sessionId, []);
    })
    .finally(() => {
      if (loading.get(sessionId) === p) loading.delete(sessionId);
      if (stale.delete(sessionId)) void loadOutputs(sessionId, true);
    });
  loading.set(sessionId, p);
  return p;
}

/** The cached outputs of a session (undefined until loaded); `enabled` false skips the read. */
export function useOutputs(
  sessionId: string | null | undefined,
  enabled = true,
  refreshKey: unknown = undefined,
): CachedOutput[] | undefined {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!sessionId || !enabled) return;
    let set = listeners.get(sessionId);
    if (!set) listeners.set(sessionId, (set = new Set()));
    const listener = () => setTick((t) => t + 1);
    set.add(listener);
    void loadOutputs(sessionId, refreshKey !== undefined);
    return () => set.delete(listener);
  }, [sessionId, enabled, refreshKey]);
  return sessionId ? known.get(sessionId) : undefined;
}

/** The first complete image output (for a thumbnail). */
export function thumbnailOf(outputs: CachedOutput[] | undefined): CachedOutput | undefined {
  return outputs?.find((o) => o.state === 'complete' && o.url && isPicture(parseOutputKind(o.kind)));
}

type ZipEntries = CommandOutput<'cache.entries'>['entries'];
/** The files of cached zips, by the zip's URL (a cached blob never changes under its URL). */
const zipEntries = new Map<string, Promise<ZipEntries>>();

function entriesOf(zip: CachedOutput): Promise<ZipEntries> {
  let p = zipEntries.get(zip.url!);
  if (!p) {
    p = getBridge()
      .call('cache.entries', { sessionId: zip.sessionId, kind: zip.kind })
      .then((r) => r.entries);
    p.catch(() => zipEntries.delete(zip.url!)); // asked again next time
    zipEntries.set(zip.url!, p);
  }
  return p;
}

/** The complete zip of the same mesh as an OBJ output (`obj` → `zip`, `preview_obj` → `preview_zip`). */
export function zipBeside(outputs: CachedOutput[] | undefined, objKind: string): CachedOutput | undefined {
  const obj = parseOutputKind(objKind);
  if (obj?.type !== 'mesh' || obj.format !== 'obj') return undefined;
  const zip = formatOutputKind({ ...obj, format: 'zip' });
  return outputs?.find((o) => o.kind === zip && o.state === 'complete' && o.url);
}

/** The OBJ inside a zip's files (not macOS's `__MACOSX/._…` companions). */
export function objEntryOf(entries: ZipEntries): ZipEntries[number] | undefined {
  return entries.find((e) => /\.obj$/i.test(e.name) && !e.name.startsWith('__MACOSX/') && !/(^|\/)\._/.test(e.name));
}

/**
 * What the viewer opens for a picked output: an OBJ is opened from inside the session's zip of the same
 * prefix when it is cached (`<zip url>/model.obj`), so that Babylon finds its MTL and textures beside it;
 * anything else (or an OBJ without a zip, or a zip without an OBJ) as it is. Undefined while the zip's
 * files are being listed, so the viewer does not load the bare OBJ first.
 */
export function useViewerSource(
  outputs: CachedOutput[] | undefined,
  picked: UrlSource | undefined,
): UrlSource | undefined {
  const zip = picked?.format === 'obj' ? zipBeside(outputs, picked.name) : undefined;
  const [found, setFound] = useState<{ zip: string; entry: string | undefined } | undefined>();
  useEffect(() => {
    if (!zip) return;
    let current = true;
    entriesOf(zip).then(
      (entries) => current && setFound({ zip: zip.url!, entry: objEntryOf(entries)?.url }),
      () => current && setFound({ zip: zip.url!, entry: undefined }),
    );
    return () => {
      current = false;
    };
  }, [zip?.url]);
  const url = !picked
    ? undefined
    : !zip
      ? picked.url
      : found?.zip !== zip.url
        ? undefined
        : (found.entry ?? picked.url);
  return useMemo(
    () =>
      picked && url
        ? { url, format: picked.format, name: picked.name, ...(url === picked.url && { size: picked.size ?? null }) }
        : undefined,
    [url, picked?.format, picked?.name],
  );
}

/**
 * The model to preview among a job's cached files: the job's model (shared/kinds/job-model.ts: the refined
 * mesh, the final one, the preview, GLB first; the older flow's preview step its preview mesh). A session's
 * animated models are shown by its animation panel, not here.
 */
export function previewOf(outputs: CachedOutput[] | undefined, step?: string | null): UrlSource | undefined {
  const ready = (outputs ?? []).filter((o) => o.state === 'complete' && o.url);
  const pick = jobModel(ready, { step, animated: false });
  return pick && { url: pick.output.url!, format: pick.format, name: pick.output.kind, size: pick.output.size };
}
