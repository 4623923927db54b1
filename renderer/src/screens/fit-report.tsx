// The engine-fit check's report (check.run): the verdict against a profile, each finding with its severity, its
// plain message and the fix the export with that profile applies; a model of 1 m (the generator's default) asks
// how tall it really is (job.setSize) and is checked again. The export panel, the job page and the viewer show it.
import { useEffect, useId, useState } from 'preact/hooks';
import type { CommandOutput, JobView } from '../../../shared/bridge/contract.ts';
import { verdictOf } from '../../../shared/fit-check.ts';
import { getBridge } from '../../bridge/index.ts';
import { Select } from '../components/choices.tsx';
import { appState } from '../app-state.ts';
import { Options, Section } from '../components/ui.tsx';
import { checkProfileOf, NO_PROFILE, PROFILE_CHOICES, PROFILE_LABELS } from '../profiles.ts';
import { useStore } from '../store.ts';
import { toShownError } from '../util.ts';

export type FitReport = CommandOutput<'check.run'>;

export const VERDICT_TEXT: Readonly<Record<ReturnType<typeof verdictOf>, string>> = {
  fits: 'Fits',
  warnings: 'Fits, with warnings',
  fails: 'Does not fit',
};

/** check.run for the job and profile, again when `refresh` changes; the report, or its error in words. */
export function useFitReport(jobId: string, profile: string | undefined, refresh: unknown) {
  const [report, setReport] = useState<FitReport | { error: string } | undefined>();
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    setReport(undefined);
    if (!profile) return;
    let current = true;
    getBridge()
      .call('check.run', { jobId, profile })
      .then(
        (r) => current && setReport(r),
        (e: unknown) => current && setReport({ error: toShownError(e).message }),
      );
    return () => {
      current = false;
    };
  }, [jobId, profile, refresh, asked]);
  return { report, again: () => setAsked((n) => n + 1) };
}

/** The report of the job against `profile`; `applied`: the fixes are applied by the export (the export panel's words). */
export function FitReportView({
  jobId,
  profile,
  refresh,
  applied = false,
}: {
  jobId: string;
  profile: string;
  refresh?: unknown;
  applied?: boolean;
}) {
  const { report, again } = useFitReport(jobId, profile, refresh);
  if (!report) return <p class="muted fit-report">Checking against {PROFILE_LABELS[profile] ?? profile}…</p>;
  if ('error' in report)
    return (
      <p class="hint fit-report" data-fit-error>
        The check could not run: {report.error}
      </p>
    );
  const verdict = verdictOf(report);
  const m = report.model;
  return (
    <div class="fit-report" data-verdict={verdict} aria-live="polite">
      <p class="fit-verdict">
        <span class={`fit-badge fit-${verdict}`}>{VERDICT_TEXT[verdict]}</span> {PROFILE_LABELS[report.profile]}:{' '}
        {m.triangles.toLocaleString('en')} triangles
        {m.largestTexture !== null && `, largest texture ${m.largestTexture} px`}
        {m.texelDensity !== null && `, ${m.texelDensity} px/m`}, {m.size.map((s) => s.toFixed(2)).join(' × ')} m
      </p>
      {report.findings.length === 0 ? (
        <p class="hint">Nothing to fix.</p>
      ) : (
        <ul class="fit-findings" aria-label="Findings">
          {report.findings.map((f) => (
            <li key={f.code} data-code={f.code} data-severity={f.severity} class={`fit-finding fit-${f.severity}`}>
              <span class="fit-severity">{f.severity}</span> {f.message}
              {f.fix && (
                <span class="fit-fix" data-fix={f.fix.kind}>
                  {applied ? ' The export applies: ' : ' Fix: '}
                  <strong>{f.fix.label}</strong>
                </span>
              )}
              {(f.code === 'size-unknown' || f.code === 'size-differs') && (
                <HeightForm jobId={jobId} heightM={report.heightM} onSaved={again} />
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** "How tall is it?": the model's real height in metres, kept for the job (job.setSize). */
function HeightForm({ jobId, heightM, onSaved }: { jobId: string; heightM: number | null; onSaved: () => void }) {
  const [value, setValue] = useState(heightM === null ? '' : String(heightM));
  const [error, setError] = useState<string | undefined>();
  const id = `fit-height-${useId()}`;
  const save = async () => {
    const h = Number(value);
    if (!(h > 0)) return setError('Give the height in metres, e.g. 0.12 for a mug.');
    try {
      await getBridge().call('job.setSize', { jobId, heightM: h });
      setError(undefined);
      onSaved();
    } catch (e) {
      setError(toShownError(e).message);
    }
  };
  return (
    <form
      class="fit-height"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label for={id}>How tall is it? (m)</label>
      <input
        id={id}
        type="number"
        min="0"
        step="any"
        value={value}
        placeholder="0.12"
        onInput={(e) => setValue(e.currentTarget.value)}
      />
      <button type="submit">Save height</button>
      {error && <span class="field-errors">{error}</span>}
    </form>
  );
}

/** The export panel's profile choice (`none`: the model as it is), and the check of the job against it. */
export function ExportProfileField({
  job,
  profile,
  onChange,
}: {
  job: JobView;
  profile: string;
  onChange: (profile: string) => void;
}) {
  return (
    <div class="field">
      <label for="export-profile">Target profile</label>
      <Select id="export-profile" value={profile} describedBy="export-profile-hint" onChange={onChange}>
        <option value={NO_PROFILE}>None: write the model as it is</option>
        <Options values={PROFILE_CHOICES} labels={PROFILE_LABELS} />
      </Select>
      <p class="hint" id="export-profile-hint">
        A profile's budget, texture size, LODs, scale and pivot are applied by the export; the check below says what
        does not fit yet. The default is chosen in Settings.
      </p>
      {profile !== NO_PROFILE && job.state === 'succeeded' && (
        <FitReportView jobId={job.id} profile={profile} refresh={job.outputsFetched} applied />
      )}
    </div>
  );
}

/** A profile to check against (no `none`), for the job page and the review board. */
export function ProfileSelect({ id, value, onChange }: { id: string; value: string; onChange: (v: string) => void }) {
  return (
    <Select id={id} value={value} onChange={onChange}>
      <Options values={PROFILE_CHOICES} labels={PROFILE_LABELS} />
    </Select>
  );
}

/** The job page's check: the report against a profile chosen here (the saved default at first). */
export function FitSection({ job }: { job: JobView }) {
  const { settings } = useStore(appState);
  const [profile, setProfile] = useState(() => checkProfileOf(settings));
  return (
    <Section
      title="Engine fit"
      id="job-fit"
      actions={
        <span class="actions">
          <label for="job-fit-profile">Profile</label>
          <ProfileSelect id="job-fit-profile" value={profile} onChange={setProfile} />
        </span>
      }
    >
      <FitReportView jobId={job.id} profile={profile} refresh={job.outputsFetched} />
    </Section>
  );
}
