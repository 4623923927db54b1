// Small building blocks: fields with their messages, progress, status, errors.
import type { ComponentChildren } from 'preact';
import type { JobView } from '../../../shared/bridge/contract.ts';
import { STATE_LABELS, type ShownError } from '../util.ts';

export function FieldMessages({ id, messages }: { id: string; messages?: string[] | undefined }) {
  if (!messages || messages.length === 0) return null;
  return (
    <ul class="field-errors" id={id} role="alert">
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  );
}

/** A labelled control with its hint and its validation messages (linked by aria-describedby). */
export function Field(props: {
  id: string;
  label: string;
  hint?: string;
  errors?: string[] | undefined;
  children: (describedBy: string) => ComponentChildren;
  class?: string;
}) {
  const hintId = `${props.id}-hint`;
  const errorId = `${props.id}-errors`;
  const describedBy = [props.hint ? hintId : '', props.errors?.length ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${props.errors?.length ? ' invalid' : ''}${props.class ? ` ${props.class}` : ''}`}>
      <label for={props.id}>{props.label}</label>
      {props.children(describedBy)}
      <FieldNotes id={props.id} hint={props.hint} errors={props.errors} />
    </div>
  );
}

/** A field's hint and validation messages under its controls, as `<id>-hint` and `<id>-errors` (what aria-describedby names). */
export function FieldNotes({
  id,
  hint,
  errors,
}: {
  id: string;
  hint?: string | undefined;
  errors?: string[] | undefined;
}) {
  return (
    <>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <FieldMessages id={`${id}-errors`} messages={errors} />
    </>
  );
}

/** A table's head row: one column header each. */
export function TableHead({ columns }: { columns: ComponentChildren[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c, i) => (
          <th key={i} scope="col">
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** The options of a select: each value, shown by its label. */
export function Options<T extends string>({ values, labels }: { values: readonly T[]; labels: Record<T, string> }) {
  return (
    <>
      {values.map((v) => (
        <option key={v} value={v}>
          {labels[v]}
        </option>
      ))}
    </>
  );
}

export function Progress({ percent, label }: { percent: number | null | undefined; label: string }) {
  const known = typeof percent === 'number' && Number.isFinite(percent);
  const value = known ? Math.round(percent) : undefined;
  return (
    <div class="progress">
      <progress max={100} value={value} aria-label={label} />
      <span class="percent">{known ? `${value}%` : '…'}</span>
    </div>
  );
}

export function StateBadge({ job }: { job: Pick<JobView, 'state' | 'rawStatus'> }) {
  return (
    <span class="state">
      {job.state === 'unknown' && job.rawStatus ? (
        // A status this version does not know is shown by its own text; the job is still followed.
        <span class="badge badge-unknown" title="A status this version does not know; the job is still followed">
          {job.rawStatus}
        </span>
      ) : (
        <span class={`badge badge-${job.state}`}>{STATE_LABELS[job.state] ?? job.state}</span>
      )}
      {job.rawStatus && job.state !== 'unknown' && (
        <span class="raw" title="Status reported by the service">
          {job.rawStatus}
        </span>
      )}
    </span>
  );
}

export function ErrorBox({ error, title }: { error: ShownError | undefined; title?: string }) {
  if (!error) return null;
  return (
    <div class="error-box" role="alert">
      {title && <strong>{title} </strong>}
      <span>{error.message}</span>
      {error.issues && error.issues.length > 0 && (
        <ul>
          {error.issues.map((i) => (
            <li key={i.path + i.message}>
              <code>{i.path}</code>: {i.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Section(props: {
  title: string;
  id?: string;
  children: ComponentChildren;
  actions?: ComponentChildren;
}) {
  const headingId = `${props.id ?? props.title.toLowerCase().replace(/\W+/g, '-')}-heading`;
  return (
    <section class="panel" aria-labelledby={headingId}>
      <div class="panel-head">
        <h2 id={headingId}>{props.title}</h2>
        {props.actions}
      </div>
      {props.children}
    </section>
  );
}
