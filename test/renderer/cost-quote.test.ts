// The cost line of a create form and of the batch (renderer/src/cost-quote.ts): known credits summed,
// prices the service does not publish said so, the balance after, and a refusal when the balance is short.
import { describe, expect, it } from 'vitest';
import type { CreditsView } from '../../shared/bridge/contract.ts';
import { quote } from '../../renderer/src/cost-quote.ts';

const engine = (balance: number): CreditsView => ({
  balance,
  source: 'local-engine',
  costs: {
    createImageTo3d: { credits: 10, basis: 'the local engine’s price list' },
    uploadAnimationMesh: { credits: 5, basis: 'the local engine’s price list' },
    submitTextAnimations: { credits: 0, basis: 'the local engine’s price list' },
  },
});
const service: CreditsView = {
  balance: 100,
  source: 'service',
  costs: {
    createImageTo3d: { credits: 10, basis: 'the service’s list' },
    createRetopology: { credits: null, basis: 'cost not published by the service' },
  },
};

describe('quote', () => {
  it('gives the cost and the balance after', () => {
    const q = quote(engine(1000), [{ endpoint: 'createImageTo3d', count: 1 }]);
    expect(q).toMatchObject({ known: 10, balance: 1000, after: 990 });
    expect(q.text).toBe('Costs 10 credits (the local engine’s price list). Balance 1000 credits → 990 credits after.');
    expect(q.refusal).toBeUndefined();
  });

  it('sums a batch of several kinds', () => {
    const q = quote(engine(1000), [
      { endpoint: 'createImageTo3d', count: 3, what: 'image-to-3D creates' },
      { endpoint: 'uploadAnimationMesh', count: 1, what: 'animation uploads' },
      { endpoint: 'submitTextAnimations', count: 1, what: 'prompt requests' },
    ]);
    expect(q.known).toBe(35);
    expect(q.after).toBe(965);
    expect(q.text).toContain('3 image-to-3D creates × 10 credits + 1 animation uploads × 5 credits');
  });

  it('says a free create is free', () => {
    expect(quote(engine(5), [{ endpoint: 'submitTextAnimations', count: 1 }]).text).toBe(
      'Free (the local engine’s price list). Balance 5 credits.',
    );
  });

  it('refuses when the balance is short', () => {
    const q = quote(engine(4), [{ endpoint: 'createImageTo3d', count: 1 }]);
    expect(q.refusal).toBe(
      'Not enough credits: this costs 10 credits and the balance is 4 credits. Add credits at the service, or send fewer.',
    );
  });

  it('refuses when the service says the balance pays for no image to 3D', () => {
    const view: CreditsView = {
      balance: 4,
      source: 'service',
      costs: { createImageTo3d: { credits: null, basis: 'the service’s list', short: true } },
    };
    expect(quote(view, [{ endpoint: 'createImageTo3d', count: 1 }]).refusal).toMatch(/pays for no image-to-3D create/);
  });

  it('says a price is not published rather than inventing one, and warns', () => {
    const q = quote(service, [{ endpoint: 'createRetopology', count: 1 }]);
    expect(q.text).toBe('Cost not published by the service. Balance 100 credits.');
    expect(q.refusal).toBeUndefined();
    expect(q.warning).toMatch(/does not publish/);
  });

  it('says the cost is unknown when the prices could not be read', () => {
    const q = quote(
      {
        balance: null,
        balanceError: 'the balance and prices could not be read: offline',
        source: 'service',
        costs: {},
      },
      [{ endpoint: 'createImageTo3d', count: 1 }],
    );
    expect(q.text).toBe('Cost unknown. Balance unknown: the balance and prices could not be read: offline.');
    expect(q.refusal).toBeUndefined();
  });

  it('warns when the balance is spent and the price is not published', () => {
    const q = quote({ ...service, balance: 0 }, [{ endpoint: 'createRetopology', count: 1 }]);
    expect(q.refusal).toBeUndefined();
    expect(q.warning).toBe(
      'The balance is 0 credits: the service refuses any create it charges for. Add credits at the service first.',
    );
  });

  it('warns when the balance is unknown', () => {
    const q = quote({ ...service, balance: null, balanceError: 'the balance could not be read: offline' }, [
      { endpoint: 'createImageTo3d', count: 2 },
    ]);
    expect(q.text).toBe(
      'Costs 20 credits (the service’s list). Balance unknown: the balance could not be read: offline.',
    );
    expect(q.refusal).toBeUndefined();
    expect(q.warning).toMatch(/could not be read/);
  });
});
