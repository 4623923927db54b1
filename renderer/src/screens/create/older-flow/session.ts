// The session of the step-by-step flow kept in the tab (sessionStorage), so a reload comes back to where it was,
// and the steps it had started, found again among the jobs.
import { getBridge } from '../../../../bridge/index.ts';
import { record } from '../../../util.ts';
import type { CreateOutput } from '../form.tsx';
import type { Vec3Text } from '../inputs.tsx';

export type Session = {
  code: string;
  image: string;
  /** The pivot the preview was asked with (the refine starts from it). */
  previewPivot?: Vec3Text;
};
const SESSION_KEY = 'asset-studio.older-flow';

/** The session of this tab (kept across a reload); undefined when none or unreadable. */
export function savedSession(): Session | undefined {
  try {
    const value = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as Partial<Session> | null;
    if (typeof value?.code !== 'string' || !value.code.startsWith('SESSION_')) return undefined;
    const pivot =
      Array.isArray(value.previewPivot) &&
      value.previewPivot.length === 3 &&
      value.previewPivot.every((v) => typeof v === 'string')
        ? value.previewPivot
        : undefined;
    return {
      code: value.code,
      image: typeof value.image === 'string' ? value.image : '',
      ...(pivot && { previewPivot: pivot }),
    };
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session | undefined): void {
  try {
    if (!session) sessionStorage.removeItem(SESSION_KEY);
    else sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  } catch {
    // A picture too large for the tab's storage: keep the code alone (regenerating the spin needs the picture again).
    if (session) sessionStorage.setItem(SESSION_KEY, JSON.stringify({ ...session, image: '' }));
  }
}

/** Keeps the preview's pivot with the tab's session (when it is that session). */
export function rememberPreviewPivot(code: string, pivot: Vec3Text): void {
  const saved = savedSession();
  if (saved?.code === code) saveSession({ ...saved, previewPivot: pivot });
}

/** The newest job of each step of a session (a reload finds the steps it had started). */
export async function stepJobs(code: string): Promise<Partial<Record<'spin' | 'preview' | 'refine', CreateOutput>>> {
  const { jobs } = await getBridge().call('jobs.list', { search: code, limit: 50 });
  const out: Partial<Record<'spin' | 'preview' | 'refine', CreateOutput>> = {};
  for (const job of jobs) {
    // Newest first: the first of each step is its latest.
    if (
      job.remoteId !== code ||
      !job.step ||
      !(job.step === 'spin' || job.step === 'preview' || job.step === 'refine') ||
      out[job.step]
    )
      continue;
    out[job.step] = { operationId: job.operationId ?? job.id, status: 'created', job };
  }
  return out;
}

/** The pivot a step was sent with, as the form's text (0, 0, 0 when it has none). */
export function pivotOf(result: unknown): Vec3Text | undefined {
  const r = record(Array.isArray(result) ? result[0] : result);
  const p = r.pivot_point;
  return Array.isArray(p) && p.length === 3 && p.every((v) => typeof v === 'number')
    ? (p.map(String) as Vec3Text)
    : undefined;
}
