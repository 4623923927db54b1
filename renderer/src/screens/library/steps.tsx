// The steps of an older-flow session inside its library entry: spin, preview, refine, each with its state.
import type { JobView } from '../../../../shared/bridge/contract.ts';
import { Progress, StateBadge } from '../../components/ui.tsx';
import { formatTime } from '../../util.ts';

const STEP_NAMES: Record<string, string> = { spin: 'Spin views', preview: 'Preview', refine: 'Refine' };

export function SessionSteps({ steps }: { steps: readonly JobView[] }) {
  return (
    <ol class="entry-steps" aria-label="Steps">
      {steps.map((s) => (
        <li key={s.id} data-step={s.step ?? ''}>
          <a href={`#/job/${encodeURIComponent(s.id)}`}>{STEP_NAMES[s.step ?? ''] ?? s.step ?? 'Step'}</a>
          <StateBadge job={s} />
          {!s.final && <Progress percent={s.percent} label={`Progress of the ${s.step ?? ''} step`} />}
          <span class="muted">{formatTime(s.createdAt)}</span>
        </li>
      ))}
    </ol>
  );
}

/** What an entry's state, progress and actions are read from: its newest step (the entry itself when it has none), under the entry's name. */
export function latestStep(job: JobView): JobView {
  const last = job.steps?.at(-1);
  return last ? { ...last, name: job.name ?? job.label, label: job.label } : job;
}
