// Before a create is sent (#17): what it costs and the balance after, as one line on stderr (or a `cost`
// object in --json), and a refusal (exit 2) when the balance is known to be short. The figures are the
// create forms' (main/app/costs.ts: the service's list, or the local engine's own price list).
import type { CreditsView } from '../../shared/bridge/contract.ts';
import type { EndpointId } from '../../shared/contract/index.ts';
import { AppError } from '../../shared/errors.ts';
import { creditsView } from '../app/costs.ts';
import type { Services } from '../app/services.ts';

/** The balance is known not to pay for what was asked: nothing was sent. */
export class InsufficientCreditsError extends AppError<'insufficient-credits'> {
  constructor(message: string) {
    super('insufficient-credits', message);
  }
}

/** What a command's creates cost, as --json shows it. */
export interface CostFacts {
  /** Total credits; null when the service does not publish the price of one of them. */
  credits: number | null;
  /** Credits left before sending; null when unknown. */
  balance: number | null;
  /** Where the figures come from. */
  basis: string;
  /** The line shown on stderr. */
  line: string;
}

/** Prices these creates (one entry per create sent) against the balance; throws when the balance is known to be short. */
export async function checkCost(
  services: Pick<Services, 'client' | 'mode'>,
  creates: readonly EndpointId[],
): Promise<CostFacts> {
  const view = await creditsView(services, (error) => (error instanceof Error ? error.message : String(error)));
  return costFacts(view, creates);
}

export function costFacts(view: CreditsView, creates: readonly EndpointId[]): CostFacts {
  const costs = creates.map((e) => view.costs[e] ?? { credits: null, basis: 'cost not published by the service' });
  const known = costs.reduce((sum, c) => sum + (c.credits ?? 0), 0);
  const credits = costs.every((c) => c.credits !== null) ? known : null;
  const basis = [...new Set(costs.map((c) => c.basis))].join('; ') || 'nothing to send';
  const { balance } = view;
  const short = costs.some((c) => c.short) || (balance !== null && known > balance);
  const where = view.source === 'local-engine' ? "The local engine's account of this data folder" : 'The account';
  if (short) {
    const what = credits === null ? `at least ${known} credits` : `${credits} credits`;
    const fix =
      view.source === 'local-engine'
        ? 'Use another --data-dir (a new local engine account starts with its full balance) or connect to the service, then run the command again.'
        : 'Add credits to the account (or use another API key), then run the command again.';
    throw new InsufficientCreditsError(
      `Not enough credits: this costs ${what} and ${where.charAt(0).toLowerCase()}${where.slice(1)} has ${balance ?? 'too few for it'}. Nothing was sent. ${fix}`,
    );
  }
  const after =
    balance === null
      ? `balance unknown: ${view.balanceError ?? 'not reported'}`
      : credits === null
        ? `balance ${balance}`
        : `balance ${balance} → ${balance - credits}`;
  const line =
    credits === null
      ? `Cost not published by the service (${after})`
      : `Costs ${credits} credit${credits === 1 ? '' : 's'} (${after})`;
  return { credits, balance, basis, line };
}

/** The --json form: the figures, without the line. */
export function costJson(cost: CostFacts): Omit<CostFacts, 'line'> {
  return { credits: cost.credits, balance: cost.balance, basis: cost.basis };
}
