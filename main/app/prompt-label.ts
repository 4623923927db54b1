// A text-animation job is titled by its prompts before the service answers; once it has answered, the prompts it
// refused leave the title (shared/kinds/animation.ts labelWithoutRefused), for every way a job is created (the
// app's create, the CLI's animate-text).
import { labelWithoutRefused } from '../../shared/kinds/animation.ts';
import type { SubmitOutcome } from '../jobs/submit.ts';
import type { Store } from '../store/database.ts';

/** The outcome's job relabelled without the refused prompts (the same outcome when nothing was refused). */
export function dropRefusedFromLabel(
  store: Pick<Store, 'jobs'>,
  outcome: SubmitOutcome,
  now = Date.now(),
): SubmitOutcome {
  const job = outcome.job;
  if (job === undefined || job.kind !== 'animation_prompt' || !('data' in outcome)) return outcome;
  const responses = (outcome.data as { responses?: unknown } | null)?.responses;
  if (!Array.isArray(responses)) return outcome;
  const answers = responses.filter(
    (r): r is { text: string; isError: boolean } =>
      typeof r === 'object' && r !== null && typeof r.text === 'string' && typeof r.isError === 'boolean',
  );
  if (!answers.some((r) => r.isError)) return outcome;
  const label = labelWithoutRefused(job.label, answers);
  if (label === job.label) return outcome;
  return { ...outcome, job: store.jobs.relabel(job.id, label, now) };
}
