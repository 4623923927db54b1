// The files and clips of an animation job as the page shows them (no component here, so tests read it as it
// is): the viewer's list of animated files, with the format their bytes show, the user's first prompt first; and
// the clips the export offers, the user's prompts ticked by default.
import type { CachedOutput, JobView } from '../../../../shared/bridge/contract.ts';
import type { ExportClip } from '../../../../shared/export-options.ts';
import { jobOutputs, outputLabelOf } from '../../../../shared/kinds/index.ts';
import { formatOutputKind, isAnimatedModel, parseOutputKind, type OutputKind } from '../../../../shared/output-kind.ts';

/** An animated file for the viewer (a UrlSource of renderer/viewer, not imported here: tests read this module alone). */
export type AnimationFile = { url: string; format: 'glb' | 'fbx'; name: string; size?: number | null; label: string };

/**
 * A job's animated files among its cached outputs (GLB or FBX, as their bytes show), in this order: the user's
 * prompts' clips (in the order they were asked: the viewer opens on the first), the session's animation, its
 * library clips.
 */
export function animationFiles(
  outputs: CachedOutput[] | undefined,
  job: Pick<JobView, 'kind' | 'result'>,
): AnimationFile[] {
  const asked = (job.result as { prompts?: unknown } | null | undefined)?.prompts;
  const prompts = Array.isArray(asked) ? asked.map((p) => String((p as { _id?: unknown } | null)?._id ?? '')) : [];
  const rank = (kind: OutputKind) =>
    kind.type === 'clip' && kind.source === 'prompt'
      ? (prompts.indexOf(kind.id) + 1 || prompts.length + 1) / (prompts.length + 2)
      : kind.type === 'animation'
        ? 1
        : 2;
  const out: (AnimationFile & { rank: number })[] = [];
  for (const o of outputs ?? []) {
    const kind = parseOutputKind(o.kind);
    if (o.state !== 'complete' || !o.url || !kind || !isAnimatedModel(kind)) continue;
    // The format its bytes show (main reads them: shared/file-format.ts): the service's clips are FBX.
    const format = o.format === 'fbx' || o.format === 'glb' ? o.format : undefined;
    if (format === undefined) continue;
    out.push({
      url: o.url,
      format,
      name: o.kind,
      label: outputLabelOf(o.kind, job),
      size: o.size,
      rank: rank(kind),
    });
  }
  return out.sort((a, b) => a.rank - b.rank).map(({ rank: _, ...file }) => file);
}

/**
 * An animation job's clips among its cached outputs (each prompt's and library clip's model, FBX or GLB), named
 * as the user knows them: the user's prompts first (a prompts job's own; a session's, from its newest read), then
 * the session's library. The export takes the prompts unless others are ticked (clipChecked), as the CLI does.
 */
export function exportClipsOf(
  outputs: CachedOutput[] | undefined,
  job: Pick<JobView, 'kind' | 'result' | 'step'>,
): ExportClip[] {
  const clips: ExportClip[] = [];
  const add = (kind: OutputKind) => {
    const key = formatOutputKind(kind);
    if (kind.type !== 'clip' || kind.format !== 'model' || clips.some((c) => c.id === key)) return;
    if (!outputs?.some((o) => o.kind === key && o.state === 'complete')) return;
    clips.push({ id: key, name: outputLabelOf(key, job, { format: false }), source: kind.source });
  };
  // A session's prompts: its newest read lists them (the session's cache holds their files too).
  if (job.kind === 'animation_session')
    for (const p of jobOutputs({ kind: 'animation_prompt', step: null, texts: null, result: job.result })) add(p.kind);
  // The job's own clips, in its order: a prompts job's prompts, a session's library.
  for (const candidate of jobOutputs({ kind: job.kind, step: job.step, texts: null, result: job.result }))
    add(candidate.kind);
  return [...clips.filter((c) => c.source === 'prompt'), ...clips.filter((c) => c.source !== 'prompt')];
}

/** Whether a clip is ticked: the user's prompts are, library clips only when the job has no prompt (`flipped`: the ones the user changed). */
export function clipChecked(clip: ExportClip, clips: readonly ExportClip[], flipped: ReadonlySet<string>): boolean {
  const byDefault = clip.source === 'prompt' || !clips.some((c) => c.source === 'prompt');
  return byDefault !== flipped.has(clip.id);
}
