// Cached outputs of sessions (cache.outputs), shared by the library, the job page and the older flow,
// kept fresh by `cache.output` events.
import { useEffect, useState } from 'preact/hooks';
import type { CachedOutput } from '../../shared/bridge/contract.ts';
import { getBridge } from '../bridge/index.ts';

const known = new Map<string, CachedOutput[]>();
const loading = new Map<string, Promise<void>>();
const listeners = new Map<string, Set<() => void>>();
let subscribed = false;

function notify(sessionId: string) {
  for (const l of listeners.get(sessionId) ?? []) l();
}

function ensureSubscribed() {
  if (subscribed) return;
  subscribed = true;
  getBridge().on('cache.output', (output) => {
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
    });
  loading.set(sessionId, p);
  return p;
}

/** The cached outputs of a session (undefined until loaded); `enabled` false skips the read. */
export function useOutputs(sessionId: string | null | undefined, enabled = true, refreshKey: unknown = undefined): CachedOutput[] | undefined {
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

const IMAGE_KINDS = /^(image|thumbnail|render|spin_\d+|retopo_image(_\d+)?)$/;

/** The first complete image output (for a thumbnail). */
export function thumbnailOf(outputs: CachedOutput[] | undefined): CachedOutput | undefined {
  return outputs?.find((o) => o.state === 'complete' && o.url && IMAGE_KINDS.test(o.kind));
}
