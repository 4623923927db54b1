// Create something at the service from the app: a checked local file (if any) and a request body, sent
// through the submission journal (main/jobs/submit.ts), so a repeat of the same operation id replays it.
// The creates still sending are kept by operation id, so the user can cut one off before it is created.
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { EndpointId } from '../../shared/contract/index.ts';
import { conflict } from '../../shared/errors.ts';
import { fileNameOf } from '../../shared/url-name.ts';
import { inspectFile, sha256File } from '../files/inspect.ts';
import type { SubmitOutcome } from '../jobs/submit.ts';
import { dropRefusedFromLabel } from './prompt-label.ts';
import type { Services } from './services.ts';

export interface CreateRequest {
  endpoint: EndpointId;
  params?: Record<string, string> | undefined;
  body?: unknown;
  /** A local file to upload (the animation mesh), already resolved to a path. */
  file?: string | undefined;
  label?: string | undefined;
  /** Chosen by the caller to make the create idempotent; a new one otherwise. */
  operationId?: string | undefined;
}

/** The creates still sending, by operation id. */
export class SendingCreates {
  readonly #sending = new Map<string, AbortController>();

  /** Cuts off the create of this operation if it is still sending (nothing is created); false if it is not. */
  abort(operationId: string): boolean {
    const sending = this.#sending.get(operationId);
    sending?.abort();
    return sending !== undefined;
  }

  abortAll(): void {
    for (const abort of this.#sending.values()) abort.abort();
  }

  /** Sends a create; `onUploadProgress` follows the file being sent to the service. */
  async create(
    services: Pick<Services, 'submitter' | 'store'>,
    request: CreateRequest,
    onUploadProgress?: (operationId: string, p: { sent: number; total: number }) => void,
  ): Promise<SubmitOutcome> {
    const operationId = request.operationId ?? `op_${randomUUID()}`;
    if (this.#sending.has(operationId))
      throw conflict(`The create ${operationId} is already being sent. Wait for its answer.`);
    const abort = new AbortController();
    this.#sending.set(operationId, abort);
    try {
      const { file } = request;
      let fileHash: string | undefined;
      if (file !== undefined) {
        await inspectFile(file);
        fileHash = await sha256File(file, abort.signal);
      }
      const outcome = await services.submitter.submit(
        request.endpoint,
        {
          ...(request.params && { params: request.params }),
          ...(request.body !== undefined && { body: request.body }),
          ...(file !== undefined && {
            file,
            ...(onUploadProgress && {
              onUploadProgress: (p: { sent: number; total: number }) => onUploadProgress(operationId, p),
            }),
          }),
          signal: abort.signal,
        },
        { label: request.label ?? labelOf(request.endpoint, request.body, file), operationId, fileHash },
      );
      // A text-animation job's label (made here or by the caller, e.g. "Male_Casual.fbx: walk, qwzx blorp") loses
      // the prompts the service refused.
      return dropRefusedFromLabel(services.store, outcome);
    } finally {
      this.#sending.delete(operationId);
    }
  }
}

/** What the user sees for a new job: the file name, the prompt, or the endpoint and session. */
export function labelOf(endpoint: EndpointId, body: unknown, file: string | undefined): string {
  if (file !== undefined) return basename(file);
  const b = (body ?? {}) as Record<string, unknown>;
  const text = [b.text, b.texts, b.description, b.prompt].find((v) => typeof v === 'string' || Array.isArray(v));
  if (text !== undefined) return String(Array.isArray(text) ? text.join(', ') : text).slice(0, 120);
  const input = (b.input ?? {}) as Record<string, unknown>; // a v3 create names its mesh or image in `input`
  const url = [b.image_url, b.mesh_url, b.zip_url, input.mesh, input.image].find(
    (v): v is string => typeof v === 'string',
  );
  if (url !== undefined)
    return url.startsWith('data:') ? `${endpoint} image` : (fileNameOf(url) || endpoint).slice(0, 120);
  return endpoint;
}
