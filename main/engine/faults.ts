// Fault injection: rules that make the engine answer like a failing service or network, switchable at
// start (options or ASSET_STUDIO_ENGINE_FAULTS), at runtime (FaultController or POST /__engine/faults),
// plus request counts per endpoint for tests and benchmarks.
import { z } from 'zod';
import { ENDPOINTS, issuesToText, parseWith, type EndpointId } from '../../shared/contract/index.ts';

export type FaultTarget = EndpointId | 'files';

const ENDPOINT_IDS = Object.keys(ENDPOINTS) as [EndpointId, ...EndpointId[]];

const common = {
  match: z
    .object({
      endpoint: z.enum([...ENDPOINT_IDS, 'files'], { error: `must be an endpoint id (${ENDPOINT_IDS.join(', ')}) or "files"` }).optional(),
      method: z.enum(['GET', 'POST'], { error: 'must be "GET" or "POST"' }).optional(),
    })
    .optional(),
  /** How many matching requests the rule hits; default 1; Infinity or -1 = every one. */
  times: z
    .union([z.number().int().min(1), z.literal(-1), z.literal(Infinity)], { error: 'must be a whole number above 0, or -1 (or Infinity) for always' })
    .optional(),
};

export const faultRuleSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('status'),
      status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503)], { error: 'must be 429, 500, 502 or 503' }),
      retryAfterSeconds: z.number().int().min(0).optional(),
      /** Answer with an HTML page (as a proxy would) instead of the JSON envelope; a string is the page itself. */
      htmlBody: z.union([z.boolean(), z.string()]).optional(),
      ...common,
    }),
    z.object({ kind: z.literal('reset'), ...common }),
    z.object({ kind: z.literal('truncate'), ...common }),
    z.object({ kind: z.literal('slow'), delayMs: z.number().int().min(0), ...common }),
    z.object({ kind: z.literal('drop-response'), ...common }),
  ],
  { error: 'must have kind "status", "reset", "truncate", "slow" or "drop-response"' },
);

export type FaultRule = z.input<typeof faultRuleSchema>;

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
}

export interface RequestRecord {
  /** Epoch milliseconds when the request arrived. */
  at: number;
  target: FaultTarget | 'unrouted';
  method: string;
  fault?: FaultRule['kind'];
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

  /** Counts a request and returns the first rule it triggers (using up one of its hits). */
  take(target: FaultTarget | undefined, method: string): FaultRule | undefined {
    const name = target ?? 'unrouted';
    this.perTarget.set(name, (this.perTarget.get(name) ?? 0) + 1);
    const record: RequestRecord = { at: Date.now(), target: name, method };
    this.seen.push(record);
    if (this.seen.length > HISTORY_LIMIT) this.seen.shift();
    const at = this.rules.findIndex(
      (r) => (r.match?.endpoint === undefined || r.match.endpoint === target) && (r.match?.method === undefined || r.match.method === method),
    );
    if (at < 0) return undefined;
    const rule = this.rules[at]!;
    record.fault = rule.kind;
    const times = rule.times ?? 1;
    if (times !== -1 && times !== Infinity) {
      if (times <= 1) this.rules.splice(at, 1);
      else rule.times = times - 1;
    }
    return rule;
  }
}
