// The steps of a session inside its library entry, each with its state: an older-flow session's spin,
// preview and refine; an animated character's upload and each request of text animations (named by its prompts).
import type { JobView } from '../../../../shared/bridge/contract.ts';
import { Progress, StateBadge } from '../../components/ui.tsx';
import { formatTime } from '../../util.ts';

const STEP_NAMES: Record<string, string> = { spin: 'Spin views', preview: 'Preview', refine: 'Refine' };

function stepName(s: JobView): string {
  if (s.step) return STEP_NAMES[s.step] ?? s.step;
  if (s.kind === 'animation_session') return 'Upload';
  if (s.kind === 'animation_prompt') return s.texts?.length ? `Animations: ${s.texts.join(', ')}` : s.label;
  return 'Step';
}

export function SessionSteps({ steps }: { steps: readonly JobView[] }) {
  return (
    <ol class="entry-steps" aria-label="Steps">
      {steps.map((s) => (
        <li key={s.id} data-step={s.step ?? ''}>
          <a href={`#/job/${encodeURIComponent(s.id)}`}>{stepName(s)}</a>
          <StateBadge job={s} />
          {!s.final && <Progress percent={s.percent} label={`Progress of the ${stepName(s)} step`} />}
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
