// What each create endpoint makes, how to read it back, and how to read its status.
// Used by `--wait` now and by the job tracker later.
import type { EndpointId, OlderStep, ResourceKind } from '../../shared/contract/index.ts';
import { normaliseStatus, type NormalisedStatus } from '../../shared/contract/lifecycle.ts';
import type { ServiceClient } from '../api/client.ts';

export interface TrackedRef {
  kind: ResourceKind;
  /** The session code / id to read. */
  id: string;
  /** For the older image-to-3D flow: the step awaited. */
  step?: OlderStep;
  /** For text animations: the prompt texts awaited. */
  texts?: string[];
}

export interface Observation {
  status: NormalisedStatus;
  /** The resource as last read. */
  value: unknown;
}

/** The resource a create call started, or undefined when the service offers no way to read it back. */
export function refOfCreate(endpoint: EndpointId, request: { params?: Record<string, string>; body?: unknown }, data: unknown): TrackedRef | undefined {
  const d = data as Record<string, unknown>;
  const body = (request.body ?? {}) as Record<string, unknown>;
  switch (endpoint) {
    case 'createImageTo3d':
      return { kind: 'image_to_3d', id: String(d.session_code) };
    case 'createImageTo3dLegacy':
      return { kind: 'image_to_3d_older', id: String(d.session_code), step: body.auto_gen_3d === true ? 'preview' : 'spin' };
    case 'submitSpin':
      return { kind: 'image_to_3d_older', id: String(body.session_code), step: 'spin' };
    case 'preview':
      return { kind: 'image_to_3d_older', id: String(request.params?.session_code), step: 'preview' };
    case 'refine':
      return { kind: 'image_to_3d_older', id: String(request.params?.session_code), step: 'refine' };
    case 'createTextToImage':
      return { kind: 'text_to_image', id: String(d.session_code) };
    case 'uploadAnimationMesh':
      return { kind: 'animation_session', id: String(d.session_code) };
    case 'submitTextAnimations': {
      // The texts the service accepted; before an answer, all those asked for.
      const responses = d.responses as { text: string; isError: boolean }[] | undefined;
      const texts = responses ? responses.filter((r) => !r.isError).map((r) => r.text) : ((body.texts ?? []) as string[]);
      return { kind: 'animation_prompt', id: String(body.session_code), texts };
    }
    case 'createRetopology':
      return { kind: 'v3_session', id: String(d._id) };
    default:
      return undefined; // styles have no read endpoint; reads and lists are not jobs
  }
}

/** Styles have no read endpoint at the service: their jobs are recorded but cannot be followed. */
export function canObserve(kind: ResourceKind): boolean {
  return kind !== 'style' && kind !== 'get3d_job' && kind !== 'asset' && kind !== 'mesh_availability' && kind !== 'animation_upload';
}

/** Reads the resource once and normalises its status. */
export async function observe(client: ServiceClient, ref: TrackedRef, signal?: AbortSignal, maxAttempts?: number): Promise<Observation> {
  const o = { signal, ...(maxAttempts !== undefined && { maxAttempts }) };
  switch (ref.kind) {
    case 'image_to_3d': {
      const s = await client.getImageTo3d(ref.id, o);
      return { value: s, status: normaliseStatus('image_to_3d', s.session_status, { percent: s.percent_done }) };
    }
    case 'image_to_3d_older': {
      // The older flow's statuses (spin_generate_*, preview_*, refine_*) are reported by get-mesh.
      const records = await client.getMesh(ref.id, o);
      const raw = records[0]?.status ?? 'unknown';
      const status = normaliseStatus('image_to_3d_older', raw, { step: ref.step });
      // The four spin images are only in the older form, which only the list endpoint returns.
      const older = status.final && ref.step === 'spin' ? await findInList(client, ref.id, o) : undefined;
      return { value: older ?? records, status };
    }
    case 'text_to_image': {
      const s = await client.getTextToImage(ref.id, o);
      return { value: s, status: normaliseStatus('text_to_image', s.status) };
    }
    case 'animation_session': {
      const s = await client.getAnimation(ref.id, o);
      return { value: s, status: normaliseStatus('animation_session', s.status) };
    }
    case 'animation_prompt': {
      const s = await client.getAnimation(ref.id, o);
      return { value: s, status: promptsStatus(s.prompts, ref.texts ?? []) };
    }
    case 'v3_session': {
      const s = await client.getV3Session(ref.id, o);
      return { value: s, status: normaliseStatus('v3_session', s.status) };
    }
    default:
      throw new Error(`cannot read a resource of kind ${ref.kind}`);
  }
}

/** The combined status of the prompts for the given texts: failed if any failed, done when all are. */
function promptsStatus(prompts: { text: string; status: string }[], texts: string[]): NormalisedStatus {
  const mine = prompts.filter((p) => texts.includes(p.text));
  const states = mine.map((p) => normaliseStatus('animation_prompt', p.status));
  const raw = states.map((s) => s.raw).join(',') || 'pending';
  if (states.some((s) => s.state === 'failed')) return { state: 'failed', raw, final: true };
  const done = states.filter((s) => s.state === 'succeeded').length;
  const percent = texts.length === 0 ? 100 : Math.round((100 * done) / texts.length);
  if (mine.length >= texts.length && done === mine.length) return { state: 'succeeded', raw, percent, final: true };
  const unknown = states.some((s) => s.state === 'unknown');
  return { state: unknown ? 'unknown' : 'running', raw, percent, final: false };
}

/** The older form of a session from the list endpoint (newest first: recent sessions are on the first pages). */
async function findInList(client: ServiceClient, code: string, o: { signal?: AbortSignal | undefined; maxAttempts?: number }): Promise<unknown> {
  for (let page = 1; page <= 5; page++) {
    const list = await client.listImageTo3d({ limit: 100, page }, o);
    const found = list.results.find((s) => s.session_code === code);
    if (found || page >= list.totalPages) return found;
  }
  return undefined;
}
