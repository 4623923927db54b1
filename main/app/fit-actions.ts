// The engine-fit check of a job's model and the review board's use cases: the model read from the download cache
// (the job's GLB, as the export takes it: main/export/from-job.ts), measured on the fit check's worker thread
// (main/fit/fit-thread.ts), judged against a target profile with the user's edits (Settings) and the height the
// user gave (main/store/reviews.ts); the approvals of the review board.
import { verdictOf, type Finding } from '../../shared/fit-check.ts';
import { AppError, invalidInput } from '../../shared/errors.ts';
import {
  FALLBACK_PROFILE,
  NO_PROFILE,
  targetProfilesSetting,
  type TargetProfilesSetting,
} from '../../shared/setting-fields.ts';
import { resolveProfile, unknownProfileMessage, type TargetProfile } from '../../shared/target-profiles.ts';
import { exportSourcesOf } from '../export/from-job.ts';
import { checkFit, texelDensityOf } from '../fit/check.ts';
import { modelFactsOffThread } from '../fit/fit-thread.ts';
import type { ModelFacts } from '../fit/model-facts.ts';
import type { ReviewDecision } from '../store/reviews.ts';
import type { JobRecord } from '../store/jobs.ts';
import type { SettingsRepository } from '../store/settings-table.ts';
import type { Services } from './services.ts';

/** The model's figures beside the findings (the board's columns, the viewer's stats). */
export interface ModelSummary {
  triangles: number;
  /** Width, height, depth in metres. */
  size: [number, number, number];
  /** The largest texture's larger side in pixels; null: no texture. */
  largestTexture: number | null;
  /** Pixels per metre of surface; null: no textured triangle. */
  texelDensity: number | null;
}

export interface JobFitReport {
  profile: string;
  findings: Finding[];
  model: ModelSummary;
  /** The height the user gave, in metres; null: not said. */
  heightM: number | null;
}

/** The saved profile choices (default and edits); empty when none are saved. */
export function savedProfiles(settings: SettingsRepository): TargetProfilesSetting {
  return settings.get('targetProfiles', targetProfilesSetting) ?? { edits: {} };
}

/** The profile named, else the saved default, else unity-desktop, with the user's edits; `none` is no profile. */
export function profileFor(settings: SettingsRepository, name: string | undefined): TargetProfile {
  const saved = savedProfiles(settings);
  const chosen = name ?? (saved.defaultProfile !== NO_PROFILE ? saved.defaultProfile : undefined) ?? FALLBACK_PROFILE;
  const profile = chosen === NO_PROFILE ? undefined : resolveProfile(chosen, saved.edits);
  if (profile === undefined)
    throw invalidInput('The profile', [
      {
        path: 'profile',
        message: chosen === NO_PROFILE ? 'the check needs a target profile' : unknownProfileMessage(chosen),
      },
    ]);
  return profile;
}

/** Facts measured once per cached file (blobs are content-addressed: a path is one content). */
const measured = new Map<string, Promise<ModelFacts>>();
const MEASURED_KEPT = 64;

function factsOf(path: string): Promise<ModelFacts> {
  let facts = measured.get(path);
  if (facts === undefined) {
    facts = modelFactsOffThread(path);
    facts.catch(() => measured.delete(path));
    measured.set(path, facts);
    if (measured.size > MEASURED_KEPT) measured.delete(measured.keys().next().value!);
  }
  return facts;
}

/** The cached GLB of a finished job; AppError `nothing-to-check` (with what to do) when there is none. */
export function modelPathOf(services: Pick<Services, 'cache'>, job: JobRecord): string {
  if (job.state !== 'succeeded')
    throw new AppError(
      'nothing-to-check',
      `${job.name ?? job.label} is ${job.rawStatus || job.state}: only a finished job's model can be checked.`,
    );
  const glb = exportSourcesOf(job, services.cache).find((f) => f.kind === 'glb');
  if (glb === undefined)
    throw new AppError(
      'nothing-to-check',
      `${job.name ?? job.label} has no GLB model in the local cache: download its outputs ("asset-studio pull ${job.id}" or the job page), then check it again.`,
    );
  return glb.path;
}

/** The engine-fit check of a job's model against a profile (the saved default when not named). */
export async function checkJob(
  services: Pick<Services, 'cache' | 'store'>,
  settings: SettingsRepository,
  job: JobRecord,
  profileName?: string,
): Promise<JobFitReport> {
  const profile = profileFor(settings, profileName);
  const facts = await factsOf(modelPathOf(services, job));
  const heightM = services.store.reviews.get(job.id)?.heightM ?? null;
  return {
    profile: profile.name,
    findings: checkFit(facts, profile, { heightM: heightM ?? undefined }),
    model: summaryOf(facts),
    heightM,
  };
}

function summaryOf(facts: ModelFacts): ModelSummary {
  const sides = facts.textures.map((t) => Math.max(t.width, t.height));
  const density = texelDensityOf(facts);
  return {
    triangles: facts.triangles,
    size: [0, 1, 2].map((k) => Number((facts.max[k]! - facts.min[k]!).toFixed(4))) as [number, number, number],
    largestTexture: sides.length > 0 ? Math.max(...sides) : null,
    texelDensity: density === null ? null : Math.round(density),
  };
}

/** Records the model's real height (null forgets it): the check's `size-differs` then offers "Set height …". */
export function setJobHeight(services: Pick<Services, 'store'>, job: JobRecord, heightM: number | null) {
  return services.store.reviews.setHeight(job.id, heightM);
}

/** One model of the review board: its figures and verdict, or why it has none, and the decision. */
export interface ReviewEntry {
  jobId: string;
  /** The create's endpoint (its price is the credits spent), null when the journal does not have it. */
  endpoint: string | null;
  decision: ReviewDecision | null;
  model: ModelSummary | null;
  verdict: ReturnType<typeof verdictOf> | null;
  /** Findings by severity. */
  errors: number;
  warnings: number;
  /** Why there is no verdict (not finished, no model cached, unreadable). */
  reason: string | null;
}

/** The review board's rows for these jobs against one profile (the saved default when not named). */
export async function reviewJobs(
  services: Pick<Services, 'cache' | 'store'>,
  settings: SettingsRepository,
  jobs: readonly JobRecord[],
  profileName?: string,
): Promise<{ profile: string; entries: ReviewEntry[] }> {
  const profile = profileFor(settings, profileName).name;
  const reviews = services.store.reviews.all();
  const entries: ReviewEntry[] = [];
  // One at a time: the worker measures one model at a time anyway, and a failed one fails its row only.
  for (const job of jobs) {
    const endpoint = job.operationId ? (services.store.journal.get(job.operationId)?.endpoint ?? null) : null;
    const base = { jobId: job.id, endpoint, decision: reviews.get(job.id)?.decision ?? null };
    try {
      const report = await checkJob(services, settings, job, profile);
      const count = (s: Finding['severity']) => report.findings.filter((f) => f.severity === s).length;
      entries.push({
        ...base,
        model: report.model,
        verdict: verdictOf(report),
        errors: count('error'),
        warnings: count('warning'),
        reason: null,
      });
    } catch (error) {
      entries.push({ ...base, model: null, verdict: null, errors: 0, warnings: 0, reason: (error as Error).message });
    }
  }
  return { profile, entries };
}

/** Approves or rejects a job's model on the review board (null: undecided). */
export function decideJob(services: Pick<Services, 'store'>, job: JobRecord, decision: ReviewDecision | null) {
  return services.store.reviews.setDecision(job.id, decision);
}
