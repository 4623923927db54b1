// Fault injection: rules that make the engine answer like a failing service or network, or make a session
// fail or report a status no client knows, switchable at start (options or ASSET_STUDIO_ENGINE_FAULTS), at
// runtime (FaultController or POST /__engine/faults), plus request counts per endpoint for tests and
// benchmarks. Faults are explicit only: nothing a client sends (prompt, URL, text) ever triggers one.
import * as z from 'zod';
import { ENDPOINTS, issuesToText, parseWith, type EndpointId } from '../../shared/contract/index.ts';

export type FaultTarget = EndpointId | 'files';

const ENDPOINT_IDS = Object.keys(ENDPOINTS) as [EndpointId, ...EndpointId[]];

const common = {
  match: z
    .object({
      endpoint: z
        .enum([...ENDPOINT_IDS, 'files'], { error: `must be an endpoint id (${ENDPOINT_IDS.join(', ')}) or "files"` })
        .optional(),
      method: z.enum(['GET', 'POST'], { error: 'must be "GET" or "POST"' }).optional(),
    })
    .optional(),
  /** How many matching requests the rule hits; default 1; Infinity or -1 = every one. */
  times: z
    .union([z.number().int().min(1), z.literal(-1), z.literal(Infinity)], {
      error: 'must be a whole number above 0, or -1 (or Infinity) for always',
    })
    .optional(),
};

/** Which session step a session rule hits: one started by a request to `endpoint`, or the next step of `session` to end. */
const sessionMatch = z
  .object({
    endpoint: z.enum(ENDPOINT_IDS, { error: `must be an endpoint id (${ENDPOINT_IDS.join(', ')})` }).optional(),
    session: z
      .string({ error: 'must be a session code or id' })
      .min(1, { error: 'must be a session code or id' })
      .optional(),
  })
  .optional();

export const SESSION_FAULT_KINDS = ['session-failure', 'session-status'] as const;

export const faultRuleSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('status'),
      status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503)], {
        error: 'must be 429, 500, 502 or 503',
      }),
      retryAfterSeconds: z.number().int().min(0).optional(),
      /** Answer with an HTML page (as a proxy would) instead of the JSON envelope; a string is the page itself. */
      htmlBody: z.union([z.boolean(), z.string()]).optional(),
      ...common,
    }),
    z.object({ kind: z.literal('reset'), ...common }),
    z.object({ kind: z.literal('truncate'), ...common }),
    z.object({ kind: z.literal('slow'), delayMs: z.number().int().min(0), ...common }),
    z.object({ kind: z.literal('drop-response'), ...common }),
    /** The session step hit ends failed (a text of text-multi answers isError). */
    z.object({ kind: z.literal('session-failure'), match: sessionMatch, times: common.times }),
    /** The session step hit reports `status` while it runs (a status no client knows, or another allowed one). */
    z.object({
      kind: z.literal('session-status'),
      status: z
        .string({ error: 'must be a status word' })
        .regex(/^[a-z][a-z0-9_]*$/, { error: 'must be a status word: lower-case letters, digits and _' }),
      match: sessionMatch,
      times: common.times,
    }),
  ],
  {
    error:
      'must have kind "status", "reset", "truncate", "slow", "drop-response", "session-failure" or "session-status"',
  },
);

export type FaultRule = z.input<typeof faultRuleSchema>;
export type SessionFaultRule = Extract<FaultRule, { kind: (typeof SESSION_FAULT_KINDS)[number] }>;
export type HttpFaultRule = Exclude<FaultRule, SessionFaultRule>;
const isSessionRule = (rule: FaultRule): rule is SessionFaultRule =>
  (SESSION_FAULT_KINDS as readonly string[]).includes(rule.kind);

/** Where a session step is decided: at its start (by the request that starts it) or at its end. */
export type SessionFaultPoint =
  | { at: 'start'; endpoint: EndpointId; session?: string }
  | { at: 'end'; session: string };

export function parseFaultRules(value: unknown, source: string): FaultRule[] {
  const parsed = parseWith(z.array(faultRuleSchema, { error: 'must be a JSON array of fault rules' }), value);
  if (!parsed.ok) throw new Error(`Invalid fault rules in ${source}: ${issuesToText(parsed.issues)}`);
  return parsed.value;
}

export interface FaultController {
  add(rule: FaultRule): void;
  clear(): void;
  /** The active rules, with `times` showing the hits left. */
  list(): FaultRule[];
  /** Requests seen for one endpoint (or `files`), or in total. */
  requestCount(endpoint?: FaultTarget): number;
  /** The last requests seen (at most 10,000), oldest first, with the fault each one got. */
  history(): readonly RequestRecord[];
  /** Requests seen per endpoint (or `files`, `unrouted`). */
  counts(): Record<string, number>;
  /** The session rule a session step gets, using up one of its hits (undefined: none). */
  takeSessionFault(point: SessionFaultPoint): SessionFaultRule | undefined;
}

export interface RequestRecord {
  /** Epoch milliseconds when the request arrived. */
  at: number;
  target: FaultTarget | 'unrouted';
  method: string;
  fault?: HttpFaultRule['kind'];
}

const HISTORY_LIMIT = 10_000;

export class Faults implements FaultController {
  private rules: FaultRule[] = [];
  private readonly perTarget = new Map<string, number>();
  private readonly seen: RequestRecord[] = [];

  constructor(rules: readonly FaultRule[] = []) {
    this.replace(rules, 'the initial fault rules');
  }

  add(rule: FaultRule): void {
    this.rules.push(parseFaultRules([rule], 'FaultController.add')[0]!);
  }

  /** Replaces every rule; throws (naming `source`) when `rules` is not a valid list of rules. */
  replace(rules: unknown, source: string): void {
    this.rules = parseFaultRules(rules, source);
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRule[] {
    return this.rules.map((rule) => structuredClone(rule));
  }

  requestCount(endpoint?: FaultTarget): number {
    if (endpoint !== undefined) return this.perTarget.get(endpoint) ?? 0;
    let total = 0;
    for (const n of this.perTarget.values()) total += n;
    return total;
  }

  history(): readonly RequestRecord[] {
    return this.seen;
  }

  counts(): Record<string, number> {
    return Object.fromEntries(this.perTarget);
  }

  /** Counts a request and returns the first request rule it triggers (using up one of its hits). */
  take(target: FaultTarget | undefined, method: string): HttpFaultRule | undefined {
    const name = target ?? 'unrouted';
    this.perTarget.set(name, (this.perTarget.get(name) ?? 0) + 1);
    const record: RequestRecord = { at: Date.now(), target: name, method };
    this.seen.push(record);
    if (this.seen.length > HISTORY_LIMIT) this.seen.shift();
    const rule = this.use(
      (r): r is HttpFaultRule =>
        !isSessionRule(r) &&
        (r.match?.endpoint === undefined || r.match.endpoint === target) &&
        (r.match?.method === undefined || r.match.method === method),
    );
    if (rule) record.fault = rule.kind;
    return rule;
  }

  /**
   * A step started by a request matches a rule whose endpoint (if given) is that request's and whose session
   * (if given) is the step's session; a step ending matches a session-failure rule naming its session and no
   * endpoint.
   */
  takeSessionFault(point: SessionFaultPoint): SessionFaultRule | undefined {
    return this.use((r): r is SessionFaultRule => {
      if (!isSessionRule(r)) return false;
      const { endpoint, session } = r.match ?? {};
      if (point.at === 'end')
        return r.kind === 'session-failure' && endpoint === undefined && session === point.session;
      return (
        (endpoint === undefined || endpoint === point.endpoint) && (session === undefined || session === point.session)
      );
    });
  }

  /** The first rule `matches` accepts, with one of its hits used up. */
  private use<R extends FaultRule>(matches: (rule: FaultRule) => rule is R): R | undefined {
    const at = this.rules.findIndex(matches);
    if (at < 0) return undefined;
    const rule = this.rules[at] as R;
    const times = rule.times ?? 1;
    if (times !== -1 && times !== Infinity) {
      if (times <= 1) this.rules.splice(at, 1);
      else rule.times = times - 1;
    }
    return rule;
  }
}
