// One click from a finished job to the next step: the job page hands the create form what it starts from
// (a text-to-image's picture, a model of the library, a model's FBX), then goes to that form, which takes it
// once when it opens. Kept in the page only: a reload opens the form empty.
import type { CachedOutput, JobView } from '../../shared/bridge/contract.ts';
import { parseOutputKind } from '../../shared/output-kind.ts';

export type NextStep =
  /** Image to 3D from a picture (a data URI: the cached picture itself, never a link to this machine). */
  | { form: 'image-to-3d'; image: string; fileName: string }
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
export function cachedOutput(outputs: CachedOutput[] | undefined, match: (kind: NonNullable<ReturnType<typeof parseOutputKind>>) => boolean): CachedOutput | undefined {
  return outputs?.find((o) => {
    const kind = parseOutputKind(o.kind);
    return o.state === 'complete' && !!o.url && !!kind && match(kind);
  });
}

/** The bytes of a cached output (same origin), as a File named `name`. */
export async function cachedFile(output: CachedOutput, name: string): Promise<File> {
  const response = await fetch(output.url!);
  if (!response.ok) throw new Error(`The cached file ${output.kind} could not be read (HTTP ${response.status}). Download the job's files again on its page.`);
  return new File([await response.blob()], name);
}


/** A file name from a job's name (its label), with an extension. */
export function fileNameOf(job: Pick<JobView, 'label' | 'id'>, extension: string): string {
  const base = (job.label || job.id).replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60) || 'model';
  return base.toLowerCase().endsWith(`.${extension}`) ? base : `${base}.${extension}`;
}
