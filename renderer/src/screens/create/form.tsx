// What every create form shares: validation with the contract's request schemas (messages next to the
// fields), the create call, and the live view of the job it started.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import type * as z from 'zod';
import type { CommandInput, CommandOutput, JobView } from '../../../../shared/bridge/contract.ts';
import type { EndpointId } from '../../../../shared/contract/endpoints.ts';
import { parseWith } from '../../../../shared/contract/issues.ts';
import { getBridge } from '../../../bridge/index.ts';
import { CostLine } from '../../components/cost-line.tsx';
import { ErrorBox, Progress, StateBadge } from '../../components/ui.tsx';
import { refreshCredits, useQuote } from '../../credits.ts';
import { issuesByField, jobTitle, toShownError, type ShownError } from '../../util.ts';

export type CreateOutput = CommandOutput<'create'>;

/** Client-side issues of a body, keyed by field; empty when valid. */
export function validate(schema: z.ZodType, body: unknown): Record<string, string[]> {
  const outcome = parseWith(schema, body);
  return outcome.ok ? {} : issuesByField(outcome.issues);
}

export interface CreateForm {
  busy: boolean;
  error: ShownError | undefined;
  /** Messages per field: the form's own (once touched or submitted) and the main process's. */
  errors(field: string): string[] | undefined;
  touch(field: string): void;
  /** Validates, then sends; returns undefined when nothing was sent. */
  submit(input: CommandInput<'create'>, schema?: z.ZodType): Promise<CreateOutput | undefined>;
  result: CreateOutput | undefined;
  reset(): void;
}

export function useCreateForm(schema: z.ZodType | undefined, body: () => unknown): CreateForm {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | undefined>();
  const [serverIssues, setServerIssues] = useState<Record<string, string[]>>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [result, setResult] = useState<CreateOutput | undefined>();
  const local = schema ? validate(schema, body()) : {};
  return {
    busy,
    error,
    result,
    errors(field) {
      const mine = submitted || touched[field] ? local[field] : undefined;
      const theirs = serverIssues[field];
      const all = [...(mine ?? []), ...(theirs ?? []).filter((m) => !mine?.includes(m))];
      return all.length ? all : undefined;
    },
    touch(field) {
      if (!touched[field]) setTouched((t) => ({ ...t, [field]: true }));
      if (serverIssues[field]) setServerIssues(({ [field]: _, ...rest }) => rest);
    },
    async submit(input, override) {
      setSubmitted(true);
      setError(undefined);
      const issues = validate(
        override ?? schema ?? ({ safeParse: (v: unknown) => ({ success: true, data: v }) } as unknown as z.ZodType),
        input.body ?? {},
      );
      if (Object.keys(issues).length > 0) {
        setError({
          message: 'Some fields need a change before this can be sent:',
          issues: Object.entries(issues).map(([path, messages]) => ({
            path: path.replaceAll('_', ' '),
            message: messages.join('; '),
          })),
        });
        return undefined;
      }
      setBusy(true);
      try {
        const out = await getBridge().call('create', input);
        void refreshCredits();
        setResult(out);
        setServerIssues({});
        setSubmitted(false);
        setTouched({});
        return out;
      } catch (e) {
        const shown = toShownError(e);
        setError(shown);
        setServerIssues(issuesByField(shown.issues));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    reset() {
      setResult(undefined);
      setError(undefined);
    },
  };
}

/** A job followed live: the given one, then every `job` event for its id. */
export function useJob(id: string | undefined, initial?: JobView): JobView | undefined {
  const [job, setJob] = useState<JobView | undefined>(initial);
  useEffect(() => {
    setJob(initial);
    if (!id) return;
    const bridge = getBridge();
    let live = true;
    const off = bridge.on('job', (j) => {
      if (j.id === id) setJob(j);
    });
    bridge
      .call('jobs.get', { id })
      .then((j) => live && setJob((current) => (current && current.updatedAt > j.updatedAt ? current : j)))
      .catch(() => {});
    return () => {
      live = false;
      off();
    };
  }, [id]);
  return job;
}

export function CreatedJob({ result, what }: { result: CreateOutput; what: string }) {
  const job = useJob(result.job?.id, result.job);
  if (!job) {
    return (
      <p class="success" role="status">
        {what} sent (operation <code>{result.operationId}</code>).
      </p>
    );
  }
  return (
    <div class="created" role="status" aria-live="polite">
      <p>
        {what} {result.status === 'replayed' ? 'was already sent' : 'sent'}:{' '}
        <a href={`#/job/${encodeURIComponent(job.id)}`}>{jobTitle(job)}</a>{' '}
        {job.remoteId && <code>{job.remoteId}</code>}
      </p>
      <div class="created-status">
        <StateBadge job={job} />
        <Progress
          percent={job.percent ?? (job.state === 'succeeded' ? 100 : null)}
          label={`Progress of ${jobTitle(job)}`}
        />
      </div>
      {job.error && <p class="job-error">{job.error}</p>}
    </div>
  );
}

/**
 * The submit button with, for a create of `endpoint` (sent `count` times, default once), what it costs and
 * the balance after; a balance known to be short disables the button, the reason shown beside it. With
 * `created` (what the form makes, "Image to 3D"), the job the form's create made is shown under it.
 */
export function FormFooter({
  form,
  label,
  busyLabel,
  endpoint,
  count = 1,
  created,
}: {
  form: CreateForm;
  label: string;
  busyLabel?: string;
  endpoint?: EndpointId;
  count?: number;
  created?: string;
}) {
  const costId = useId();
  const q = useQuote(endpoint ? [{ endpoint, count }] : []);
  const refusal = endpoint ? q.refusal : undefined;
  return (
    <>
      <div class="form-footer">
        {endpoint && <CostLine quote={q} id={costId} />}
        <button
          type="submit"
          class="primary"
          disabled={form.busy || refusal !== undefined}
          aria-describedby={endpoint ? costId : undefined}
        >
          {form.busy ? (busyLabel ?? 'Sending…') : label}
        </button>
        <ErrorBox error={form.error} />
      </div>
      {created && form.result && <CreatedJob result={form.result} what={created} />}
    </>
  );
}

/** Text of a number input as a number (NaN when not one, so the schema names the field). */
export function num(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/** The <form> of a create: labelled by its title, the browser's own validation off (ours is shown per field). */
export function FormShell(props: { titleId: string; onSubmit: () => unknown; children: ComponentChildren }) {
  return (
    <form
      class="create-form"
      aria-labelledby={props.titleId}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSubmit();
      }}
    >
      {props.children}
    </form>
  );
}
