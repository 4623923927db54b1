// The bridge over the local web host: commands are `POST <call prefix><command>` with the JSON input,
// events arrive on one WebSocket as `{event, payload}` messages, and local files are uploaded raw (with
// progress) to get an upload id. The host's token comes in the link it printed (`?token=`): it is moved into
// this tab's sessionStorage and out of the address bar, and sent as `Authorization: Bearer` on every request
// and as a subprotocol of the WebSocket (a browser sets no headers there). Never a cookie: a browser sends
// cookies of 127.0.0.1 to every port there, to every other local server.
// Nothing here knows the API key: it never crosses this transport towards the page.
import type {
  BridgeApi,
  BridgeError,
  CommandInput,
  CommandName,
  CommandOutput,
  EventName,
  EventPayload,
} from '../../shared/bridge/contract.ts';
import { WEB_PROTOCOL, type EventMessage, type UploadAnswer } from '../../shared/bridge/web-protocol.ts';

/** The web host's routes, shared with main/host/web-host.ts. */
export const WEB_ROUTES = WEB_PROTOCOL;

/** An Error that carries the bridge error's code and field issues. */
export class BridgeCallError extends Error implements BridgeError {
  readonly code: string;
  readonly issues: { path: string; message: string }[] | undefined;
  constructor(error: BridgeError) {
    super(error.message);
    this.name = 'BridgeCallError';
    this.code = error.code;
    this.issues = error.issues;
  }
}

export function isBridgeError(value: unknown): value is BridgeCallError {
  return value instanceof BridgeCallError;
}

function toBridgeError(body: unknown, status: number): BridgeCallError {
  const b = (body ?? {}) as Partial<BridgeError>;
  if (typeof b.code === 'string' && typeof b.message === 'string') {
    return new BridgeCallError({
      code: b.code,
      message: b.message,
      ...(Array.isArray(b.issues) && { issues: b.issues }),
    });
  }
  if (status === 401 || status === 403) {
    return new BridgeCallError({
      code: 'unauthorized',
      message:
        'This page is not signed in to Asset Studio. Open it with the link Asset Studio printed when it started (it holds the token).',
    });
  }
  return new BridgeCallError({
    code: 'host_error',
    message: `Asset Studio answered with an error (HTTP ${status}). Try again; if it keeps happening, restart the app.`,
  });
}

/**
 * The host's token for this tab: taken from the link's `?token=` (then kept in sessionStorage, and removed from
 * the address bar and history), else from sessionStorage (a reload, a reconnect). Undefined when neither has it.
 */
export function takeToken(): string | undefined {
  const storage = (() => {
    try {
      return sessionStorage;
    } catch {
      return undefined; // storage blocked: the token lives as long as the page
    }
  })();
  const url = new URL(location.href);
  const given = url.searchParams.get(WEB_PROTOCOL.tokenParam);
  if (given !== null && given !== '') {
    storage?.setItem(WEB_PROTOCOL.tokenStorageKey, given);
    url.searchParams.delete(WEB_PROTOCOL.tokenParam);
    history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
    return given;
  }
  return storage?.getItem(WEB_PROTOCOL.tokenStorageKey) ?? undefined;
}

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface WebClientOptions {
  /** Origin of the web host; the page's own by default. */
  origin?: string;
  /** The host's token; by default the link's or this tab's (takeToken). */
  token?: string;
  /** Reconnection backoff of the event socket (ms). */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export interface UploadProgress {
  sent: number;
  total: number;
}

export class WebBridgeClient implements BridgeApi {
  readonly #origin: string;
  readonly #token: string | undefined;
  readonly #listeners = new Map<string, Set<(payload: never) => void>>();
  readonly #stateListeners = new Set<(state: ConnectionState) => void>();
  #socket: WebSocket | undefined;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  #state: ConnectionState = 'closed';
  readonly #minDelay: number;
  readonly #maxDelay: number;

  constructor(options: WebClientOptions = {}) {
    this.#origin = options.origin ?? location.origin;
    this.#token = options.token ?? takeToken();
    this.#minDelay = options.minDelayMs ?? 250;
    this.#maxDelay = options.maxDelayMs ?? 10_000;
  }

  async call<C extends CommandName>(command: C, input: CommandInput<C>): Promise<CommandOutput<C>> {
    let response: Response;
    try {
      response = await fetch(`${this.#origin}${WEB_ROUTES.callPrefix}${encodeURIComponent(command)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.#authorization() },
        body: JSON.stringify(input ?? {}),
        credentials: 'same-origin',
      });
    } catch {
      throw new BridgeCallError({
        code: 'host_unreachable',
        message: 'Asset Studio is not answering. Check that the app is still running, then try again.',
      });
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!response.ok) throw toBridgeError(body, response.status);
    return body as CommandOutput<C>;
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener as (payload: never) => void);
    this.#connect();
    return () => {
      set.delete(listener as (payload: never) => void);
    };
  }

  /** Follows the state of the event socket (for an "offline" indicator). */
  onConnection(listener: (state: ConnectionState) => void): () => void {
    this.#stateListeners.add(listener);
    listener(this.#state);
    return () => this.#stateListeners.delete(listener);
  }

  /** Uploads a local file as a raw body; resolves with the upload id that commands accept. */
  upload(
    file: Blob & { name?: string },
    onProgress?: (progress: UploadProgress) => void,
    signal?: AbortSignal,
  ): Promise<{ uploadId: string }> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${this.#origin}${WEB_ROUTES.upload}`);
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries(this.#authorization())) xhr.setRequestHeader(name, value);
      xhr.setRequestHeader(WEB_ROUTES.fileNameHeader, encodeURIComponent(file.name ?? 'file'));
      xhr.setRequestHeader('content-type', 'application/octet-stream');
      xhr.upload.onprogress = (e) => onProgress?.({ sent: e.loaded, total: e.lengthComputable ? e.total : file.size });
      xhr.onerror = () =>
        reject(
          new BridgeCallError({
            code: 'host_unreachable',
            message: 'The upload was cut off: Asset Studio is not answering. Check the app is running and try again.',
          }),
        );
      xhr.onabort = () => reject(new BridgeCallError({ code: 'cancelled', message: 'The upload was cancelled.' }));
      xhr.onload = () => {
        let body: unknown;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          body = undefined;
        }
        if (
          xhr.status >= 200 &&
          xhr.status < 300 &&
          body &&
          typeof (body as Partial<UploadAnswer>).uploadId === 'string'
        ) {
          onProgress?.({ sent: file.size, total: file.size });
          resolve({ uploadId: (body as UploadAnswer).uploadId });
        } else reject(toBridgeError(body, xhr.status));
      };
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(file);
    });
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#socket?.close();
  }

  #authorization(): Record<string, string> {
    return this.#token === undefined ? {} : { authorization: `Bearer ${this.#token}` };
  }

  #setState(state: ConnectionState) {
    if (state === this.#state) return;
    this.#state = state;
    for (const l of this.#stateListeners) l(state);
  }

  #connect() {
    if (this.#socket || this.#closed || this.#timer !== undefined) return;
    const url = new URL(WEB_ROUTES.events, this.#origin);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    this.#setState('connecting');
    // The token as a subprotocol beside the one the host selects (it never echoes the token back).
    const protocols: string[] = [WEB_ROUTES.socketProtocol];
    if (this.#token !== undefined) protocols.push(`${WEB_ROUTES.socketTokenPrefix}${this.#token}`);
    const socket = new WebSocket(url, protocols);
    this.#socket = socket;
    socket.onopen = () => {
      this.#attempt = 0;
      this.#setState('open');
    };
    socket.onmessage = (message) => {
      let parsed: Partial<EventMessage>;
      try {
        parsed = JSON.parse(String(message.data)) as typeof parsed;
      } catch {
        return;
      }
      if (typeof parsed.event !== 'string') return;
      for (const listener of this.#listeners.get(parsed.event) ?? []) {
        try {
          listener(parsed.payload as never);
        } catch (error) {
          console.error(error);
        }
      }
    };
    socket.onclose = () => {
      this.#socket = undefined;
      this.#setState('closed');
      if (this.#closed) return;
      // Exponential backoff with jitter, so a restarted app is found again without a storm.
      const base = Math.min(this.#maxDelay, this.#minDelay * 2 ** this.#attempt++);
      this.#timer = setTimeout(
        () => {
          this.#timer = undefined;
          this.#connect();
        },
        base / 2 + Math.random() * (base / 2),
      );
    };
  }
}
