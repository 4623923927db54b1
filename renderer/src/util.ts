// Formatting and error helpers shared by the screens.
import type { JobView } from '../../shared/bridge/contract.ts';
import type { FieldIssue } from '../../shared/contract/issues.ts';
import { formatBytes as formatSize } from '../../shared/format-bytes.ts';

export interface ShownError {
  message: string;
  code?: string;
  issues?: FieldIssue[];
}

/** Any thrown value as words for people (a BridgeError's message is already written for them). */
export function toShownError(error: unknown): ShownError {
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; code?: unknown; issues?: unknown };
    const out: ShownError = {
      message: typeof e.message === 'string' && e.message !== '' ? e.message : 'Something went wrong. Try again.',
    };
    if (typeof e.code === 'string') out.code = e.code;
    if (Array.isArray(e.issues)) out.issues = e.issues as FieldIssue[];
    return out;
  }
  return { message: String(error) };
}

/** Field issues keyed by their top-level field (`scaled_bbox[1]` → `scaled_bbox`, `body.input.mesh` → `input.mesh`). */
export function issuesByField(issues: readonly FieldIssue[] | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const seen = new Set<string>();
  for (const issue of issues ?? []) {
    // One message per exact path: the first rule broken is the one to fix first.
    if (seen.has(issue.path)) continue;
    seen.add(issue.path);
    let path = issue.path.replace(/^body\.?/, '');
    if (path === '') path = '(body)';
    const index = /\[(\d+)\]$/.exec(path);
    const field = path.replace(/\[\d+\]$/, '');
    const text = index ? `value ${Number(index[1]) + 1}: ${issue.message}` : issue.message;
    (out[field] ??= []).push(text);
  }
  return out;
}

/** A size as the app writes it (shared/format-bytes.ts: `12.5 KiB`), `–` when it is not known. */
export function formatBytes(bytes: number | null | undefined): string {
  return bytes === null || bytes === undefined || !Number.isFinite(bytes) ? '–' : formatSize(bytes);
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export function formatTime(ms: number | string | null | undefined): string {
  if (ms === null || ms === undefined || ms === '') return '–';
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : timeFormat.format(date);
}

export const STATE_LABELS: Record<JobView['state'], string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  unknown: 'Unknown status',
  submission_unknown: 'Submission unknown',
  cancelled: 'Cancelled',
};

/** The name shown for a job: the one given in the library, else its label (input file name or prompt). */
export function jobTitle(job: Pick<JobView, 'name' | 'label' | 'remoteId' | 'id'>): string {
  return job.name || job.label || job.remoteId || job.id;
}

export function stepLabel(job: JobView): string {
  return job.step ? ` · ${job.step}` : '';
}

/** Reads a file as a data URI (images for the create forms). */
export function readAsDataUri(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('The file could not be read. Check it is still there and readable.'));
    reader.readAsDataURL(file);
  });
}

export function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
