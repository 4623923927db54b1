// What a create costs and what the account has left, for the create forms and the batch: the balance is
// the image-to-3D list's `credits`; a price comes from the kind's cost fact (shared/kinds): the list's
// `credits` ÷ `image_to_3d_credits` for image to 3D, "not published" otherwise. The embedded local engine
// documents its own prices (main/engine/credits.ts), so against it every price is known.
import type { CreditsView } from '../../shared/bridge/contract.ts';
import { ENDPOINTS, type EndpointId } from '../../shared/contract/index.ts';
import { costBasisOf } from '../../shared/kinds/index.ts';
import { engineCostOf } from '../engine/index.ts';
import type { Services } from './services.ts';

/** The creates a form or a batch can send (every endpoint that makes something). */
const CREATES = (Object.keys(ENDPOINTS) as EndpointId[]).filter((e) => ENDPOINTS[e].mutating);

export const ENGINE_BASIS = 'the local engine’s price list';
export const LIST_BASIS = 'the service’s list: credits ÷ image-to-3D creates they pay for';
export const UNPUBLISHED_BASIS = 'cost not published by the service';

/** Reads the balance (one short page of the image-to-3D list) and prices every create. */
export async function creditsView(
  services: Pick<Services, 'client' | 'mode'>,
  describe: (error: unknown) => string,
): Promise<CreditsView> {
  let balance: number | null = null;
  let perImage: number | null = null;
  let paysNone = false;
  let balanceError: string | undefined;
  try {
    const list = await services.client.listImageTo3d({ page: '1', limit: '1' });
    balance = list.credits ?? null;
    if (list.credits !== undefined && list.image_to_3d_credits !== undefined && list.image_to_3d_credits > 0)
      perImage = Math.floor(list.credits / list.image_to_3d_credits);
    paysNone = list.image_to_3d_credits === 0;
    if (balance === null) balanceError = 'the service’s list does not report the balance';
  } catch (error) {
    balanceError = `the balance could not be read: ${describe(error)}`;
  }
  const embedded = services.mode === 'embedded';
  const costs: CreditsView['costs'] = {};
  for (const endpoint of CREATES) {
    if (embedded) {
      costs[endpoint] = { credits: engineCostOf(endpoint), basis: ENGINE_BASIS };
    } else if (costBasisOf(endpoint) === 'image-to-3d-list') {
      // A balance that pays for no image-to-3D create (image_to_3d_credits 0) is short whatever the price.
      costs[endpoint] = { credits: perImage, basis: LIST_BASIS, ...(paysNone && { short: true }) };
    } else {
      costs[endpoint] = { credits: null, basis: UNPUBLISHED_BASIS };
    }
  }
  return { balance, source: embedded ? 'local-engine' : 'service', costs, ...(balanceError && { balanceError }) };
}
