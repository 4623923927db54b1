// One click from a finished job to the next step: the job page hands the create form what it starts from
// (a text-to-image's picture, a model of the library, a model's FBX), then goes to that form, which takes it
// once when it opens. Kept in the page only: a reload opens the form empty.
import type { CachedOutput, JobView } from '../../shared/bridge/contract.ts';
import { parseOutputKind } from '../../shared/output-kind.ts';

export type NextStep =
  /** Image to 3D from a picture (a data URI: the cached picture itself, never a link to this machine). */
  /** `label`: the 3D job's name, from the picture's prompt ("3D of <prompt>"). */
  | { form: 'image-to-3d'; image: string; fileName: string; label?: string }
  /** Retopology of a model of the library. */
  | { form: 'retopology'; jobId: string }
  /** Animation of a model: its FBX, read from the cache. */
  | { form: 'animation'; file: File };

let pending: NextStep | undefined;

export function handOff(step: NextStep): void {
  pending = step;
  location.hash = `#/create/${step.form}`;
}

/** What a form of this kind was handed (once: the next call returns undefined). */
export function takeHandOff<F extends NextStep['form']>(form: F): Extract<NextStep, { form: F }> | undefined {
  if (pending?.form !== form) return undefined;
  const step = pending as Extract<NextStep, { form: F }>;
  pending = undefined;
  return step;
}

/** A complete cached output of a job whose kind matches. */
export function cachedOutput(
  outputs: CachedOutput[] | undefined,
  match: (kind: NonNullable<ReturnType<typeof parseOutputKind>>) => boolean,
): CachedOutput | undefined {
  return outputs?.find((o) => {
    const kind = parseOutputKind(o.kind);
    return o.state === 'complete' && !!o.url && !!kind && match(kind);
  });
}

/** The type of a picture from its first bytes (PNG, JPEG, WebP), or undefined. */
function pictureType(head: Uint8Array): { type: string; extension: string } | undefined {
  const at = (i: number, text: string) => [...text].every((c, k) => head[i + k] === c.charCodeAt(0));
  if (head[0] === 0x89 && at(1, 'PNG')) return { type: 'image/png', extension: 'png' };
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { type: 'image/jpeg', extension: 'jpg' };
  if (at(0, 'RIFF') && at(8, 'WEBP')) return { type: 'image/webp', extension: 'webp' };
  return undefined;
}

/**
 * The bytes of a cached output (same origin), as a File named `name`. A picture gets its type and extension
 * from its first bytes (the service's image_url needs an image data URI, not application/octet-stream).
 */
export async function cachedFile(output: CachedOutput, name: string): Promise<File> {
  const response = await fetch(output.url!);
  if (!response.ok)
    throw new Error(
      `The cached file ${output.kind} could not be read (HTTP ${response.status}). Download the job's files again on its page.`,
    );
  const blob = await response.blob();
  const picture = pictureType(new Uint8Array(await blob.slice(0, 12).arrayBuffer()));
  if (!picture) return new File([blob], name, { type: blob.type });
  return new File([blob], name.replace(/\.[a-z]+$/i, `.${picture.extension}`), { type: picture.type });
}

/** The prompt a text-to-image job was made from (the service's record, else its label), trimmed. */
export function promptOf(job: Pick<JobView, 'label' | 'result'>): string {
  const prompt = (job.result as { prompt?: unknown } | null | undefined)?.prompt;
  return (typeof prompt === 'string' && prompt.trim() ? prompt : job.label).trim().replace(/\s+/g, ' ');
}

/** The name of the 3D job made from a text-to-image's picture: "3D of <prompt>", at most 80 characters. */
export function modelLabelOf(job: Pick<JobView, 'label' | 'result'>): string {
  const label = `3D of ${promptOf(job)}`;
  return label.length <= 80 ? label : `${label.slice(0, 79).trimEnd()}…`;
}

/** A file name from a job's name (its label), with an extension. */
export function fileNameOf(job: Pick<JobView, 'label' | 'id'>, extension: string): string {
  const base =
    (job.label || job.id)
      .replace(/[^\w.-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 60) || 'model';
  return base.toLowerCase().endsWith(`.${extension}`) ? base : `${base}.${extension}`;
}
