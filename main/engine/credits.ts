// Credits: every account starts with the same balance, and each create costs a fixed amount (below).
// Follow-up requests (spin, preview, refine, text animations) and reads are free. An account that
// cannot pay gets 402. `image_to_3d_credits` in the list is how many image-to-3D creates the balance pays for.
import type { EndpointId } from '../../shared/contract/index.ts';
import type { EngineContext } from './context.ts';
import { HttpError } from './http.ts';

export const CREATE_COSTS = {
  createImageTo3d: 10,
  createImageTo3dLegacy: 10,
  createTextToImage: 1,
  createStyle: 5,
  uploadAnimationMesh: 5,
  createRetopology: 10,
} as const satisfies Partial<Record<EndpointId, number>>;

/** What the engine takes for a create of this endpoint: its price above, 0 for a follow-up or a read. */
export function engineCostOf(endpoint: EndpointId): number {
  return (CREATE_COSTS as Partial<Record<EndpointId, number>>)[endpoint] ?? 0;
}

export function creditsOf(s: EngineContext, userId: string): number {
  return s.state.credits[userId] ?? s.initialCredits;
}

/** Takes the cost of a create from the account; returns the price paid. */
export function charge(s: EngineContext, userId: string, endpoint: keyof typeof CREATE_COSTS): number {
  const price = CREATE_COSTS[endpoint];
  const balance = creditsOf(s, userId);
  if (balance < price)
    throw new HttpError(402, `Not enough credits: this costs ${price} and the account has ${balance}.`);
  s.state.credits[userId] = balance - price;
  return price;
}

export const imageTo3dCreditsOf = (s: EngineContext, userId: string): number =>
  Math.floor(creditsOf(s, userId) / CREATE_COSTS.createImageTo3d);
