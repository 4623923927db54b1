// The older step-by-step image-to-3D flow: create at the legacy address, pick one of the four spin
// images (or regenerate the spin), ask for a preview mesh, then refine it. The session being worked on is
// kept in the tab (sessionStorage) and its steps are found again among the jobs, so a reload comes back to
// where it was; the spin views show as soon as each is cached (cache.output events).
import { useEffect, useState } from 'preact/hooks';
import type { JobView } from '../../../../shared/bridge/contract.ts';
import { parseOutputKind } from '../../../../shared/output-kind.ts';
import {
  PREVIEW_MODEL_VERSIONS,
  createImageTo3dLegacyRequest,
  previewRequest,
  refineRequest,
  submitSpinRequest,
} from '../../../../shared/contract/image-to-3d.ts';
import { getBridge, getTransport } from '../../../bridge/index.ts';
import { ErrorBox, Progress, StateBadge } from '../../components/ui.tsx';
import { loadOutputs, useOutputs } from '../../outputs.ts';
import { record, toShownError, type ShownError } from '../../util.ts';
import {
  CreatedJob,
  FormFooter,
  num,
  useCreateForm,
  useJob,
  type CreateForm,
  type CreateOutput,
  FormShell,
} from './form.tsx';
import { bindFields, useValues } from './fields.ts';
import {
  CheckboxField,
  ImageSourceInput,
  SelectField,
  TextField,
  Vec3Input,
  emptyImage,
  imageOf,
  type FieldProps,
  type Vec3Text,
} from './inputs.tsx';

interface Spin {
  index: number;
  /** What the page shows: the cached copy when there is one. */
  shown: string;
  /** The service's URL (sent as selected_spin). */
  remote: string;
}

type Session = {
  code: string;
  image: string /** The pivot the preview was asked with (the refine starts from it). */;
  previewPivot?: Vec3Text;
};
const SESSION_KEY = 'asset-studio.older-flow';

/** The preview step's own fields, by the request field each fills. */
interface PreviewFields {
  model_version: (typeof PREVIEW_MODEL_VERSIONS)[number];
  pivot_point: Vec3Text;
}

/** The session of this tab (kept across a reload); undefined when none or unreadable. */
function savedSession(): Session | undefined {
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

function saveSession(session: Session | undefined): void {
  try {
    if (!session) sessionStorage.removeItem(SESSION_KEY);
    else sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  } catch {
    // A picture too large for the tab's storage: keep the code alone (regenerating the spin needs the picture again).
    if (session) sessionStorage.setItem(SESSION_KEY, JSON.stringify({ ...session, image: '' }));
  }
}

/** Keeps the preview's pivot with the tab's session (when it is that session). */
function rememberPreviewPivot(code: string, pivot: Vec3Text): void {
  const saved = savedSession();
  if (saved?.code === code) saveSession({ ...saved, previewPivot: pivot });
}

/** The newest job of each step of a session (a reload finds the steps it had started). */
async function stepJobs(code: string): Promise<Partial<Record<'spin' | 'preview' | 'refine', CreateOutput>>> {
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
function pivotOf(result: unknown): Vec3Text | undefined {
  const r = record(Array.isArray(result) ? result[0] : result);
  const p = r.pivot_point;
  return Array.isArray(p) && p.length === 3 && p.every((v) => typeof v === 'number')
    ? (p.map(String) as Vec3Text)
    : undefined;
}

function spinIndex(key: string): number | undefined {
  const kind = parseOutputKind(key);
  return kind?.type === 'spin' ? kind.index : undefined;
}

/** The four spin images of a session: from the job's last read, the cache, or the service's list. */
async function findSpins(sessionCode: string, job: JobView | undefined): Promise<Spin[]> {
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

export function OlderFlowForm() {
  const [values, set] = useValues({ image_url: emptyImage, model_version: '', auto_gen_3d: false });
  const image = values.image_url;
  const [session, setSessionState] = useState<Session | undefined>(savedSession);
  const setSession = (next: Session | undefined) => {
    saveSession(next);
    setSessionState(next);
  };
  const [resume, setResume] = useState('');
  const [spinResult, setSpinResult] = useState<CreateOutput | undefined>();
  const body = () => ({ ...values, image_url: imageOf(image) });
  const form = useCreateForm(createImageTo3dLegacyRequest, body);
  const field = bindFields(form, values, set);
  return (
    <div class="older-flow">
      <FormShell
        titleId="form-title"
        onSubmit={async () => {
          const sent = imageOf(image);
          const out = await form.submit({
            endpoint: 'createImageTo3dLegacy',
            body: body(),
            ...(image.fileName && { label: `${image.fileName} (step by step)` }),
          });
          if (out?.job?.remoteId) {
            setSession({ code: out.job.remoteId, image: sent });
            setSpinResult(out);
          }
        }}
      >
        <h2 id="form-title">Image to 3D, step by step</h2>
        <p class="hint">
          The older flow, sent to the legacy address: four spin views first, then a preview mesh from the one you
          choose, then a refined mesh.
        </p>
        <ImageSourceInput id="old-image" {...field('image_url')} />
        <div class="grid-2">
          <TextField
            id="old-model"
            label="Model version"
            {...field('model_version')}
            hint="Empty (default) selects the latest beta model."
          />
          <CheckboxField
            id="old-auto"
            label="Generate the 3D model automatically"
            {...field('auto_gen_3d')}
            hint="Default off: you choose the spin view and ask for the preview yourself."
          />
        </div>
        <FormFooter form={form} label="Create session" endpoint="createImageTo3dLegacy" />
      </FormShell>
      {!session && (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (resume.trim().startsWith('SESSION_')) setSession({ code: resume.trim(), image: '' });
          }}
        >
          <TextField
            id="old-resume"
            label="Or continue a session"
            placeholder="SESSION_…"
            value={resume}
            onChange={setResume}
            hint="A session code of the step-by-step flow."
          />
          <button type="submit">Continue</button>
        </form>
      )}
      {session && (
        <>
          <Steps key={session.code} code={session.code} image={session.image} first={spinResult} />
          <button type="button" onClick={() => (setSpinResult(undefined), setSession(undefined))}>
            Close this session
          </button>
        </>
      )}
    </div>
  );
}

function Steps({ code, image, first }: { code: string; image: string; first: CreateOutput | undefined }) {
  const [spinOut, setSpinOut] = useState<CreateOutput | undefined>(first);
  const spinJob = useJob(spinOut?.job?.id, spinOut?.job);
  const [spins, setSpins] = useState<Spin[] | undefined>();
  const [spinError, setSpinError] = useState<ShownError | undefined>();
  const [chosen, setChosen] = useState(0);
  const [preview, setPreview] = useValues<PreviewFields>({ model_version: '1.1', pivot_point: ['0', '0', '0'] });
  const [previewOut, setPreviewOut] = useState<CreateOutput | undefined>();
  const previewJob = useJob(previewOut?.job?.id, previewOut?.job);
  const [refine, setRefine] = useValues({ pivot_point: ['0', '0', '0'] as Vec3Text });
  const setRefinePivot = (pivot: Vec3Text) => setRefine('pivot_point', pivot);
  const [refineOut, setRefineOut] = useState<CreateOutput | undefined>();
  const spinReady = !spinOut || spinJob?.state === 'succeeded';
  // Kept fresh by cache.output events: a spin view shows as soon as its file is cached.
  const outputs = useOutputs(code);
  const cachedSpin = (index: number) =>
    outputs?.find((o) => spinIndex(o.kind) === index && o.state === 'complete' && o.url)?.url ?? undefined;

  // A session continued (after a reload, or by its code): the steps it had started, as they are now.
  useEffect(() => {
    if (first) return;
    let live = true;
    stepJobs(code)
      .then((steps) => {
        if (!live) return;
        if (steps.spin) setSpinOut(steps.spin);
        if (steps.preview) {
          setPreviewOut(steps.preview);
          const p =
            savedSession()?.code === code
              ? (savedSession()?.previewPivot ?? pivotOf(steps.preview.job?.result))
              : pivotOf(steps.preview.job?.result);
          if (p) setRefinePivot(p);
        }
        if (steps.refine) setRefineOut(steps.refine);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [code]);

  useEffect(() => {
    if (!spinReady) return;
    let live = true;
    setSpinError(undefined);
    findSpins(code, spinJob)
      .then((s) => live && setSpins(s))
      .catch((e: unknown) => live && setSpinError(toShownError(e)));
    return () => {
      live = false;
    };
  }, [spinReady, spinJob?.updatedAt]);

  const previewBody = () => {
    const spin = spins?.find((s) => s.index === chosen);
    return {
      model_version: preview.model_version,
      selected_spin_index: chosen,
      ...(spin?.remote && { selected_spin: spin.remote }),
      pivot_point: preview.pivot_point.map(num),
    };
  };
  const previewForm = useCreateForm(previewRequest, previewBody);
  const spinForm = useCreateForm(submitSpinRequest, () => ({ session_code: code, image_urls: [image] }));
  const refineBody = () => ({ pivot_point: refine.pivot_point.map(num) });
  const refineForm = useCreateForm(refineRequest, refineBody);
  const previewField = bindFields(previewForm, preview, setPreview);
  const refineField = bindFields(refineForm, refine, setRefine);
  /** A step's form sends `endpoint` for this session with the form's body, then hands on what it answered. */
  const submitStep =
    (form: CreateForm, endpoint: 'preview' | 'refine', body: () => unknown, then: (out: CreateOutput) => void) =>
    async (e: Event) => {
      e.preventDefault();
      const out = await form.submit({
        endpoint,
        params: { session_code: code },
        body: body(),
        label: `${code} ${endpoint}`,
      });
      if (out) then(out);
    };

  return (
    <section class="steps" aria-label={`Steps of ${code}`}>
      <h3>
        Session <code>{code}</code>
      </h3>
      <ol class="step-list">
        <li class="step">
          <h4>1. Choose a spin view</h4>
          {spinJob && !spinReady && (
            <div class="created-status" role="status">
              <span>Making the spin views…</span>
              <StateBadge job={spinJob} />
              <Progress percent={spinJob.percent} label="Progress of the spin views" />
            </div>
          )}
          {spinJob?.state === 'failed' && (
            <p class="job-error">{spinJob.error ?? 'The spin views could not be made.'}</p>
          )}
          <ErrorBox error={spinError} />
          {spinReady && spins && spins.length === 0 && (
            <p class="muted">
              No spin images yet. The service lists them once the spin is done; try Regenerate spin if this stays empty.
            </p>
          )}
          {spinReady && spins && spins.length > 0 && (
            <fieldset class="spins">
              <legend>Spin images ({spins.length})</legend>
              {spins.map((s) => {
                const shown = cachedSpin(s.index) ?? s.shown;
                return (
                  <label key={s.index} class={`spin${chosen === s.index ? ' chosen' : ''}`}>
                    <input
                      type="radio"
                      name="spin"
                      value={s.index}
                      checked={chosen === s.index}
                      onChange={() => setChosen(s.index)}
                    />
                    {shown.startsWith('/') || getTransport().kind === 'electron' ? (
                      <img src={shown} alt={`Spin view ${s.index + 1}`} width={128} height={128} />
                    ) : (
                      <span class="spin-placeholder">Not cached yet</span>
                    )}
                    <span>Spin {s.index + 1}</span>
                  </label>
                );
              })}
            </fieldset>
          )}
          {image !== '' && (
            <form
              class="inline-form"
              onSubmit={async (e) => {
                e.preventDefault();
                const out = await spinForm.submit({
                  endpoint: 'submitSpin',
                  body: { session_code: code, image_urls: [image] },
                  label: `${code} spin`,
                });
                if (out) {
                  setSpins(undefined);
                  setSpinOut(out);
                }
              }}
            >
              <button type="submit" disabled={spinForm.busy || !spinReady}>
                Regenerate spin
              </button>
              <ErrorBox error={spinForm.error} />
            </form>
          )}
        </li>
        <li class="step">
          <h4>2. Preview mesh</h4>
          <form
            noValidate
            onSubmit={submitStep(previewForm, 'preview', previewBody, (out) => {
              setPreviewOut(out);
              setRefinePivot(preview.pivot_point); // the refined mesh keeps the preview's pivot unless changed here
              rememberPreviewPivot(code, preview.pivot_point);
            })}
          >
            <div class="grid-2">
              <SelectField
                id="prev-version"
                label="Preview model version"
                options={PREVIEW_MODEL_VERSIONS}
                defaultValue="1.1"
                {...previewField('model_version')}
              />
              <p class="hint">
                Spin view used: {spins?.length ? `spin ${chosen + 1}` : 'the first (index 0, default)'}
              </p>
            </div>
            <PivotInput
              id="prev-pivot"
              legend="Pivot point"
              {...previewField('pivot_point')}
              hint="Each from -0.5 to 0.5 of the bounding box; 0, 0, 0 is the centre (default), 0, -0.5, 0 the centre of the bottom."
            />
            {previewForm.errors('selected_spin_index') && (
              <p class="job-error">{previewForm.errors('selected_spin_index')!.join(' ')}</p>
            )}
            <FormFooter form={previewForm} label="Make preview" endpoint="preview" />
          </form>
          {previewOut && <CreatedJob result={previewOut} what="Preview" />}
        </li>
        <li class="step">
          <h4>3. Refine</h4>
          {!previewOut && <p class="muted">Available once a preview was asked for.</p>}
          {previewOut && (
            <form noValidate onSubmit={submitStep(refineForm, 'refine', refineBody, setRefineOut)}>
              <PivotInput
                id="ref-pivot"
                legend="Pivot point of the refined mesh"
                {...refineField('pivot_point')}
                hint="Each from -0.5 to 0.5; 0, 0, 0 is the centre."
              />
              {previewJob?.state === 'succeeded' ? (
                <FormFooter form={refineForm} label="Refine mesh" endpoint="refine" />
              ) : (
                <p class="muted">The refine button appears when the preview is done.</p>
              )}
            </form>
          )}
          {refineOut && <CreatedJob result={refineOut} what="Refine" />}
        </li>
      </ol>
    </section>
  );
}

/** The pivot_point of a preview or refine step: X, Y and Z in steps of 0.05. */
function PivotInput(props: FieldProps<Vec3Text> & { legend: string }) {
  return <Vec3Input {...props} names={['X', 'Y', 'Z']} step="0.05" />;
}
