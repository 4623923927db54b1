// The four spin images of a session: from the job's last read, the cache, or the service's list.
import type { JobView } from '../../../../../shared/bridge/contract.ts';
import { parseOutputKind } from '../../../../../shared/output-kind.ts';
import { getBridge } from '../../../../bridge/index.ts';
import { loadOutputs } from '../../../outputs.ts';
import { record } from '../../../util.ts';

export interface Spin {
  index: number;
  /** What the page shows: the cached copy when there is one. */
  shown: string;
  /** The service's URL (sent as selected_spin). */
  remote: string;
}

export function spinIndex(key: string): number | undefined {
  const kind = parseOutputKind(key);
  return kind?.type === 'spin' ? kind.index : undefined;
}

/** The four spin images of a session: from the job's last read, the cache, or the service's list. */
export async function findSpins(sessionCode: string, job: JobView | undefined): Promise<Spin[]> {
  const bridge = getBridge();
  let remote: string[] = [];
  const fromResult = (value: unknown) => {
    const r = record(Array.isArray(value) ? value[0] : value);
    return Array.isArray(r.inference) ? r.inference.map((i) => String(record(i).image_url ?? '')).filter(Boolean) : [];
  };
  remote = fromResult(job?.result);
  if (remote.length === 0) {
    for (let page = 1; page <= 5 && remote.length === 0; page++) {
      const list = await bridge.call('sessions.list', { page, limit: 100 }).catch(() => undefined);
      if (!list) break;
      const found = list.results.find((s) => s.session_code === sessionCode);
      if (found) remote = fromResult(found);
      if (page >= list.totalPages) break;
    }
  }
  await loadOutputs(sessionCode, true);
  const cached = await bridge
    .call('cache.outputs', { sessionId: sessionCode })
    .then((r) => r.outputs)
    .catch(() => []);
  const count = Math.max(remote.length, ...cached.map((o) => (spinIndex(o.kind) ?? -1) + 1));
  const spins: Spin[] = [];
  for (let index = 0; index < count; index++) {
    const local = cached.find((o) => spinIndex(o.kind) === index && o.state === 'complete' && o.url)?.url ?? undefined;
    const url = remote[index] ?? '';
    if (local || url) spins.push({ index, shown: local ?? url, remote: url });
  }
  return spins;
}
