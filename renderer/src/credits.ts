// The balance and the prices of the creates (credits.get), shared by the create forms and the batch dialog:
// read at start-up, after a create or a batch, and when jobs change (at most every few seconds).
import type { CreditsView } from '../../shared/bridge/contract.ts';
import { getBridge } from '../bridge/index.ts';
import { patchApp } from './app-state.ts';
import { Store, useStore } from './store.ts';
import { quote, type CostPart, type Quote } from './cost-quote.ts';
import { toShownError } from './util.ts';

export const creditsStore = new Store<CreditsView | undefined>(undefined);

const QUIET_MS = 3000;
let timer: ReturnType<typeof setTimeout> | undefined;
let following = false;

/** Reads the balance and prices now. */
export async function refreshCredits(): Promise<void> {
  try {
    const view = await getBridge().call('credits.get', {});
    creditsStore.set(view);
    patchApp({ credits: view.balance ?? undefined });
  } catch (e) {
    // Prices read before stay; without any, the forms say the cost and balance are unknown, and why.
    if (!creditsStore.get())
      creditsStore.set({
        balance: null,
        balanceError: `the balance and prices could not be read: ${toShownError(e).message}`,
        source: 'service',
        costs: {},
      });
  }
}

/** Reads them again soon (many job events in a row make one read). */
export function refreshCreditsSoon(): void {
  if (timer !== undefined) return;
  timer = setTimeout(() => {
    timer = undefined;
    void refreshCredits();
  }, QUIET_MS);
}

/** Called once at start-up: reads the balance, then follows job events and settings changes. */
export function followCredits(): () => void {
  void refreshCredits();
  if (following) return () => {};
  following = true;
  const bridge = getBridge();
  const offs = [
    bridge.on('job', refreshCreditsSoon),
    bridge.on('settings', () => void refreshCredits()),
    bridge.on('batch.done', () => void refreshCredits()),
  ];
  return () => {
    following = false;
    for (const off of offs) off();
  };
}

/** The quote of these parts, kept up to date. */
export function useQuote(parts: readonly CostPart[]): Quote {
  return quote(useStore(creditsStore), parts);
}
