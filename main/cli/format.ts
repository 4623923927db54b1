// Human-readable output of results. With --json, results go to stdout as JSON and nothing else does.
import type { EndpointId } from '../../shared/contract/index.ts';
import { shownState } from '../../shared/contract/status.ts';
import { kindOfData, normaliseStatus, type ResourceKind } from '../../shared/kinds/index.ts';

const STATUS_FIELDS = ['session_status', 'status'] as const;

/** An endpoint's data as lines: a list as rows, a record as `key: value` lines under its state (by the kind of its data, shared/kinds/). */
export function formatResult(endpoint: EndpointId, data: unknown): string {
  const kind = kindOfData(endpoint);
  // A create whose answer was lost and then found has no data of its own until it is read back.
  if (data === null || data === undefined) return '(no data from the service yet)';
  if (endpoint === 'listImageTo3d' || endpoint === 'listAnimations') return formatList(data as ListLike, kind);
  if (endpoint === 'submitTextAnimations') {
    const items = (data as { responses: { text: string; message: string; isError: boolean }[] }).responses;
    return items
      .map((r) => `${r.isError ? 'FAILED' : 'ok    '}  ${r.text}${r.message ? `  (${r.message})` : ''}`)
      .join('\n');
  }
  if (Array.isArray(data)) return (data as Record<string, unknown>[]).map((r) => formatRecord(r, kind)).join('\n\n');
  return formatRecord(data as Record<string, unknown>, kind);
}

/** `key: value` lines for the filled scalar fields, a status line first, lists summarised. */
export function formatRecord(record: Record<string, unknown>, kind?: ResourceKind): string {
  const lines: string[] = [];
  const statusField = STATUS_FIELDS.find((f) => typeof record[f] === 'string');
  if (kind && statusField) {
    const percent =
      typeof record.percent_done === 'number'
        ? record.percent_done
        : typeof record.percentage === 'number'
          ? record.percentage
          : undefined;
    const s = normaliseStatus(kind, record[statusField] as string, { percent });
    const pct = s.percent !== undefined ? `, ${s.percent}%` : '';
    // A status this version does not know is shown by its own text: the job is still followed.
    lines.push(
      s.state === 'unknown'
        ? `state: ${s.raw} (a status this version does not know; still followed${pct})`
        : `state: ${s.state} (${s.raw}${pct})`,
    );
  }
  for (const [key, value] of Object.entries(record)) {
    if (value === '' || value === null || value === undefined) continue;
    if (Array.isArray(value)) lines.push(`${key}: ${summariseArray(value)}`);
    else if (typeof value === 'object') lines.push(`${key}: ${JSON.stringify(value)}`);
    else lines.push(`${key}: ${String(value)}`);
  }
  return lines.join('\n');
}

function summariseArray(value: unknown[]): string {
  if (value.length === 0) return '(none)';
  if (value.every((v) => typeof v !== 'object' || v === null)) return value.join(', ');
  return value
    .map((v) => {
      const o = v as Record<string, unknown>;
      const label = o.label ?? o.text ?? o.image_name ?? o.name ?? o._id;
      const url = o.url ?? o.image_url ?? o.mesh_url ?? '';
      const status = o.status ? ` [${String(o.status)}]` : '';
      return `\n  - ${String(label ?? '')}${status}${url ? ` ${String(url)}` : ''}`;
    })
    .join('');
}

interface ListLike {
  results: { session_code: string; status: string; created_at?: string; model_version?: string }[];
  page: number;
  skip?: number | undefined;
  totalPages: number;
  totalResults: number;
  credits?: number;
  image_to_3d_credits?: number;
}

function formatList(list: ListLike, kind: ResourceKind | undefined): string {
  const rows = list.results.map((r) => {
    const s = kind ? normaliseStatus(kind, r.status) : { state: 'unknown' as const, raw: r.status };
    return `${r.session_code}  ${shownState(s).padEnd(9)}  ${r.status.padEnd(24)}  ${r.created_at ?? ''}`;
  });
  // The answer's `skip` says which records came back, whichever way the service read `page`.
  const which =
    list.skip !== undefined && list.results.length > 0
      ? `sessions ${list.skip + 1}–${list.skip + list.results.length} of ${list.totalResults}`
      : `${list.totalResults} sessions`;
  const footer = [`page ${list.page} of ${list.totalPages} (${which})`];
  if (list.credits !== undefined) footer.push(`credits: ${list.credits}`);
  if (list.image_to_3d_credits !== undefined) footer.push(`image-to-3D credits: ${list.image_to_3d_credits}`);
  return [...(rows.length ? rows : ['(no sessions)']), footer.join('  ·  ')].join('\n');
}
