// The review board's actions on several models: "run again with other settings" (the job's create request,
// jobs.request, its settings prefilled and edited here, sent as a new job with `create`: main checks the body
// against the endpoint's schema and names a wrong field), and "export approved" (export.run for each approved
// model with the profile, one after the other, then a summary of what was written and what failed).
import { useEffect, useState } from 'preact/hooks';
import type { CommandOutput, JobView } from '../../../shared/bridge/contract.ts';
import { ENDPOINTS, type EndpointDef, type EndpointId } from '../../../shared/contract/endpoints.ts';
import { getBridge } from '../../bridge/index.ts';
import { appState } from '../app-state.ts';
import { ErrorBox, Section } from '../components/ui.tsx';
import { PROFILE_LABELS } from '../profiles.ts';
import { useStore } from '../store.ts';
import { jobTitle, record, toShownError, type ShownError } from '../util.ts';

type Request = NonNullable<CommandOutput<'jobs.request'>>;
/** The body schema of a create's endpoint, when it has one. */
const bodyOf = (endpoint: string) => (ENDPOINTS[endpoint as EndpointId] as EndpointDef | undefined)?.body;

/** The request with the endpoint's defaults filled in (every setting shown), as main would read it. */
function withDefaults(request: Request): Record<string, unknown> {
  const schema = bodyOf(request.endpoint);
  const parsed = schema?.safeParse(request.body);
  return { ...record(parsed?.success ? parsed.data : request.body) };
}

/** The choices of an enum field of the endpoint's body schema (through its default), else undefined. */
function choicesOf(endpoint: string, key: string): readonly string[] | undefined {
  let field = (bodyOf(endpoint) as { shape?: Record<string, unknown> } | undefined)?.shape?.[key];
  for (let i = 0; i < 3 && field; i++) {
    const def = (field as { def?: { type?: string; innerType?: unknown } }).def;
    if (def?.type !== 'default' && def?.type !== 'optional') break;
    field = def.innerType;
  }
  const options = (field as { options?: unknown } | undefined)?.options;
  return Array.isArray(options) && options.every((o) => typeof o === 'string') ? options : undefined;
}

/** A field of the request the form can edit: a plain value, never the input itself (an image, a file's URL). */
const editable = (key: string, value: unknown) =>
  !key.endsWith('_url') &&
  (typeof value === 'string' ? !value.startsWith('data:') : typeof value === 'number' || typeof value === 'boolean');

export function RunAgain({ job, onClose }: { job: JobView; onClose: () => void }) {
  const [request, setRequest] = useState<Request | null | undefined>();
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [error, setError] = useState<ShownError | undefined>();
  const [sent, setSent] = useState<string | undefined>();
  useEffect(() => {
    getBridge()
      .call('jobs.request', { id: job.id })
      .then(
        (r) => {
          setRequest(r);
          setValues(r ? withDefaults(r) : {});
        },
        (e: unknown) => setError(toShownError(e)),
      );
  }, [job.id]);
  const send = async () => {
    if (!request) return;
    setError(undefined);
    try {
      const created = await getBridge().call('create', {
        endpoint: request.endpoint as EndpointId,
        params: request.params,
        body: values,
        label: `${jobTitle(job)} (again)`,
      });
      setSent(created.job?.id ?? created.operationId);
    } catch (e) {
      setError(toShownError(e));
    }
  };
  const fields = Object.entries(values).filter(([k, v]) => editable(k, v));
  return (
    <Section title={`Run “${jobTitle(job)}” again`} id="review-again">
      {request === undefined && !error && <p class="muted">Reading its settings…</p>}
      {request === null && <p class="hint">This job's request was not recorded here: run it again from Create.</p>}
      {request && (
        <form
          class="settings-form review-again"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <p class="hint">The same input, with these settings (a new job, paid again):</p>
          <div class="grid-2">
            {fields.map(([key, value]) => (
              <div class="field" key={key}>
                <label for={`again-${key}`}>{key.replaceAll('_', ' ')}</label>
                {choicesOf(request.endpoint, key) ? (
                  <select
                    id={`again-${key}`}
                    value={String(value)}
                    onChange={(e) => setValues({ ...values, [key]: e.currentTarget.value })}
                  >
                    {choicesOf(request.endpoint, key)!.map((c) => (
                      <option key={c} value={c}>
                        {c.replaceAll('_', ' ')}
                      </option>
                    ))}
                  </select>
                ) : typeof value === 'boolean' ? (
                  <input
                    id={`again-${key}`}
                    type="checkbox"
                    checked={value}
                    onChange={(e) => setValues({ ...values, [key]: e.currentTarget.checked })}
                  />
                ) : (
                  <input
                    id={`again-${key}`}
                    inputMode={typeof value === 'number' ? 'decimal' : 'text'}
                    value={String(value)}
                    onInput={(e) => {
                      const text = e.currentTarget.value;
                      setValues({ ...values, [key]: typeof value === 'number' ? Number(text) : text });
                    }}
                  />
                )}
              </div>
            ))}
          </div>
          {fields.length === 0 && <p class="hint">It has no settings to change besides its input.</p>}
          <div class="form-footer">
            <button type="submit" class="primary">
              Send as a new job
            </button>
            <button type="button" onClick={onClose}>
              Close
            </button>
            {sent && (
              <span role="status">
                Sent: <a href={`#/job/${sent}`}>follow it</a>.
              </span>
            )}
          </div>
        </form>
      )}
      <ErrorBox error={error} title="It was not sent" />
    </Section>
  );
}

interface Outcome {
  job: JobView;
  result?: CommandOutput<'export.run'>;
  error?: string;
}

export function ExportApproved({ jobs, profile }: { jobs: JobView[]; profile: string }) {
  const { settings } = useStore(appState);
  const [projectDir, setProjectDir] = useState(settings?.export.projectDir ?? '');
  const [overwrite, setOverwrite] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcomes, setOutcomes] = useState<Outcome[] | undefined>();
  const run = async () => {
    setBusy(true);
    const done: Outcome[] = [];
    setOutcomes(done);
    for (const job of jobs) {
      try {
        const result = await getBridge().call('export.run', {
          jobId: job.id,
          projectDir: projectDir.trim(),
          profile,
          ...(overwrite && { overwrite: true }),
        });
        done.push({ job, result });
      } catch (e) {
        done.push({ job, error: toShownError(e).message });
      }
      setOutcomes([...done]);
    }
    setBusy(false);
  };
  const failed = outcomes?.filter((o) => o.error).length ?? 0;
  return (
    <Section title="Export approved" id="review-export">
      <form
        class="settings-form review-export"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <div class="field">
          <label for="review-export-dir">Project folder</label>
          <input
            id="review-export-dir"
            type="text"
            value={projectDir}
            placeholder="/path/to/your/game/project"
            onInput={(e) => setProjectDir(e.currentTarget.value)}
          />
        </div>
        <label>
          <input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite(e.currentTarget.checked)} /> Replace
          earlier exports of the same names
        </label>
        <div class="form-footer">
          <button type="submit" class="primary" disabled={busy || jobs.length === 0 || !projectDir.trim()}>
            {busy ? 'Exporting…' : `Export ${jobs.length} approved with ${PROFILE_LABELS[profile] ?? profile}`}
          </button>
        </div>
      </form>
      {outcomes && (
        <div class="export-result review-summary" role="status">
          <p>
            {busy ? 'Exporting' : 'Exported'} {outcomes.length - failed} of {jobs.length}
            {failed > 0 ? `; ${failed} failed` : ''}.
          </p>
          <ul>
            {outcomes.map((o) => (
              <li key={o.job.id} data-exported={o.error ? 'failed' : 'written'}>
                {jobTitle(o.job)}:{' '}
                {o.result ? (
                  <>
                    <code>{o.result.targetDir}</code> ({o.result.files.length} files)
                  </>
                ) : (
                  <span class="item-error">{o.error}</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Section>
  );
}
