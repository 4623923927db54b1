// What a submit costs, in words, from the balance and prices main reads (credits.get): the known credits,
// the parts whose price the service does not publish, the balance after, and the reason to refuse when
// the balance is short. One function for a form (one create) and a batch (several kinds, many files).
import type { CreditsView } from '../../shared/bridge/contract.ts';

export interface CostPart {
  /** The create's endpoint id (a key of CreditsView.costs). */
  endpoint: string;
  /** How many of them are sent. */
  count: number;
  /** What they are, for a batch's sum ("image-to-3D creates"). */
  what?: string;
}

export interface Quote {
  /** Credits of the parts whose price is known. */
  known: number;
  /** Parts whose price is not published by the service. */
  unpublished: CostPart[];
  balance: number | null;
  /** The balance after the known credits (null when the balance is unknown). */
  after: number | null;
  /** Why a submit is refused (the balance is short); undefined when it may go. */
  refusal?: string;
  /** What the user should know before sending (a price not published, a balance not read). */
  warning?: string;
  /** The cost and balance, in one line. */
  text: string;
}

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

export function quote(view: CreditsView | undefined, parts: readonly CostPart[]): Quote {
  const counted = parts.filter((p) => p.count > 0);
  if (!view) return { known: 0, unpublished: [], balance: null, after: null, text: 'Reading the balance and prices…' };
  let known = 0;
  let shortKnown = false;
  const unpublished: CostPart[] = [];
  const sums: string[] = [];
  for (const part of counted) {
    const cost = view.costs[part.endpoint];
    if (cost?.short) shortKnown = true;
    if (cost === undefined || cost.credits === null) {
      unpublished.push(part);
      continue;
    }
    known += cost.credits * part.count;
    if (part.what && cost.credits > 0) sums.push(`${part.count} ${part.what} × ${credits(cost.credits)}`);
  }
  const basis = [...new Set(counted.map((p) => view.costs[p.endpoint]?.basis).filter((b): b is string => !!b))].join(
    '; ',
  );
  const balance = view.balance;
  const after = balance === null ? null : balance - known;
  const costText =
    counted.length === 0
      ? 'Nothing to send.'
      : unpublished.length === counted.length
        ? counted.every((p) => view.costs[p.endpoint] === undefined)
          ? 'Cost unknown.'
          : 'Cost not published by the service.'
        : known === 0 && unpublished.length === 0
          ? `Free (${basis}).`
          : `Costs ${credits(known)}${sums.length > 1 ? ` (${sums.join(' + ')})` : ''}${unpublished.length ? ' plus what the service does not publish' : ''} (${basis}).`;
  const balanceText =
    balance === null
      ? `Balance unknown${view.balanceError ? `: ${view.balanceError}` : ''}.`
      : known > 0
        ? `Balance ${credits(balance)} → ${credits(after!)} after.`
        : `Balance ${credits(balance)}.`;
  const out: Quote = { known, unpublished, balance, after, text: `${costText} ${balanceText}` };
  if (balance !== null && (known > balance || shortKnown)) {
    out.refusal = shortKnown
      ? `Not enough credits: the balance (${credits(balance)}) pays for no image-to-3D create, says the service. Add credits at the service first.`
      : `Not enough credits: this costs ${credits(known)} and the balance is ${credits(balance)}. Add credits at the service, or send fewer.`;
  } else if (unpublished.length > 0 && counted.length > 0 && (balance === null || balance > 0)) {
    out.warning = `The service does not publish what ${unpublished.map((p) => p.what ?? 'this').join(' and ')} cost${unpublished.length === 1 && !unpublished[0]!.what ? 's' : ''}: the balance after may be lower, and the service refuses a create the balance cannot pay.`;
  } else if (balance !== null && balance <= 0 && unpublished.length > 0) {
    out.warning = `The balance is ${credits(balance)}: the service refuses any create it charges for. Add credits at the service first.`;
  } else if (balance === null && known > 0) {
    out.warning = 'The balance could not be read: the service refuses a create the balance cannot pay.';
  }
  return out;
}
