// Mesh animation: an FBX (or zip) upload makes a session read back with GET /mesh-animation/<code>; text
// prompts (POST /mesh-animation/text-multi) add clips to it, each a job of its own. Outputs: the session's
// animated model, its library clips, each prompt's animated model and USDZ, the render and thumbnail. The
// animated models are FBX from the service (GLB or FBX from the local engine): their format is never assumed
// here, shared/file-format.ts finds it from each file's URL and bytes.
import type { AnimationSession } from '../contract/animation.ts';
import { normaliseWith, type NormalisedStatus, type StatusTable } from '../contract/status.ts';
import type { ClipNames } from '../output-kind.ts';
import { list, record, str } from './fields.ts';
import { startedBy, statusField } from './session-job.ts';
import { defineResource, type OutputCandidate } from './types.ts';

const statuses: StatusTable = {
  init_processing: 'running',
  init_done: 'running',
  predefined_processing: 'running',
  predefined_done: 'succeeded',
  text_processing: 'running',
  text_done: 'succeeded',
  init_failed: 'failed',
  predefined_failed: 'failed',
  text_failed: 'failed',
};

const promptStatuses: StatusTable = {
  queued: 'queued',
  text_processing: 'running',
  processing: 'running',
  in_progress: 'running',
  text_done: 'succeeded',
  completed: 'succeeded',
  text_failed: 'failed',
};

/** A library clip's id in its output kind: its `_id`, else its label. */
const libraryId = (entry: Readonly<Record<string, unknown>>) => str(entry._id) || str(entry.label);

/** The library's labels and the prompts' texts, by the ids their output kinds carry. */
function clipNames(result: unknown): ClipNames {
  const r = record(result);
  return {
    library: new Map(list(r.animation_library).map((a) => [libraryId(a), str(a.label)] as const)),
    prompt: new Map(list(r.prompts).map((p) => [str(p._id), str(p.text)] as const)),
  };
}

export const animationSession = defineResource({
  kind: 'animation_session',
  label: 'Animation',
  statuses,
  answers: ['getAnimation', 'listAnimations'],
  job: {
    ...startedBy('uploadAnimationMesh', 'session_code', 'unpublished'),
    read: 'getAnimation',
    status: statusField(statuses),
    shortestMs: 30_000,
    outputs: (job) => {
      const r = record(job.result);
      return [
        { kind: { type: 'input-mesh' }, url: str(r.mesh_url) },
        { kind: { type: 'animation' }, url: str(r.animation_url) },
        { kind: { type: 'render' }, url: str(r.render_url) },
        { kind: { type: 'thumbnail' }, url: str(r.thumbnail) },
        ...list(r.animation_library).map(
          (a): OutputCandidate => ({
            kind: { type: 'clip', source: 'library', id: libraryId(a), format: 'model' },
            url: str(a.url),
          }),
        ),
      ];
    },
    clipNames,
    preview: 'animation',
  },
});

export const animationPrompt = defineResource({
  kind: 'animation_prompt',
  label: 'Text animation',
  statuses: promptStatuses,
  answers: [],
  job: {
    creates: {
      submitTextAnimations: (call, d) => {
        const body = record(call.body);
        // The texts the service accepted; before an answer, all those asked for.
        const responses = d.responses as { text: string; isError: boolean }[] | undefined;
        const texts = responses
          ? responses.filter((r) => !r.isError).map((r) => r.text)
          : ((body.texts ?? []) as string[]);
        return { id: String(body.session_code), texts };
      },
    },
    costs: { submitTextAnimations: 'unpublished' },
    read: 'getAnimation',
    status: (value, ref) => promptsStatus((value as AnimationSession).prompts, ref.texts ?? []),
    shortestMs: 25_000,
    outputs: (job) =>
      list(record(job.result).prompts)
        .filter((p) => job.texts === null || job.texts.includes(str(p.text)))
        .flatMap((p): OutputCandidate[] => [
          { kind: { type: 'clip', source: 'prompt', id: str(p._id), format: 'model' }, url: str(p.mesh_url) },
          { kind: { type: 'clip', source: 'prompt', id: str(p._id), format: 'usdz' }, url: str(p.usdz_url) },
        ]),
    clipNames,
    preview: 'animation',
  },
});

/** The answer of an upload: the new session, still initialising. */
export const animationUpload = defineResource({
  kind: 'animation_upload',
  label: 'Animation upload',
  statuses,
  answers: ['uploadAnimationMesh'],
});

/** The combined status of the prompts for the given texts: failed if any failed, done when all are. */
function promptsStatus(
  prompts: readonly { text: string; status: string }[],
  texts: readonly string[],
): NormalisedStatus {
  const mine = prompts.filter((p) => texts.includes(p.text));
  const states = mine.map((p) => normaliseWith({ statuses: promptStatuses }, p.status));
  const raw = states.map((s) => s.raw).join(',') || 'pending';
  if (states.some((s) => s.state === 'failed')) return { state: 'failed', raw, final: true };
  const done = states.filter((s) => s.state === 'succeeded').length;
  const percent = texts.length === 0 ? 100 : Math.round((100 * done) / texts.length);
  if (mine.length >= texts.length && done === mine.length) return { state: 'succeeded', raw, percent, final: true };
  const unknown = states.some((s) => s.state === 'unknown');
  return { state: unknown ? 'unknown' : 'running', raw, percent, final: false };
}

/**
 * A text-animation job's label once the service answered: without the prompts it refused (each answer with
 * `isError`), so a job is never titled by a prompt it does not animate. The label is the prompts joined (the app:
 * "walk, qzxv blorp"; the CLI: "animate-text SESSION walk qzxv blorp"; a batch: "hero: walk, qzxv blorp"): each
 * refused prompt is taken out with the separator before it. All refused: "Text animation (every prompt refused)".
 */
export function labelWithoutRefused(label: string, responses: readonly { text: string; isError: boolean }[]): string {
  let out = label;
  for (const { text, isError } of responses) {
    if (!isError || text.trim() === '') continue;
    const at = out.indexOf(text);
    if (at < 0) continue;
    let before = out.slice(0, at);
    let after = out.slice(at + text.length);
    const separator = before.endsWith(': ') ? undefined : /(, | )$/.exec(before)?.[0];
    if (separator !== undefined) before = before.slice(0, -separator.length);
    else after = after.replace(/^(, | )/, '');
    out = before + after;
  }
  out = out.replace(/: $/, '').trim();
  const accepted = responses.some((r) => !r.isError);
  return accepted && out !== '' ? out : 'Text animation (every prompt refused)';
}
