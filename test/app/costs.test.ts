// What a create costs and the balance, as the create forms and the batch show them: against the embedded
// engine its own prices; against a service (here a separate engine reached by URL and key) the image-to-3D
// price from the list's figures and "not published" for the rest; every kind's create has a cost fact.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { creditsView, ENGINE_BASIS, LIST_BASIS, UNPUBLISHED_BASIS } from '../../main/app/costs.ts';
import { createServices, type Services } from '../../main/app/services.ts';
import { CREATE_COSTS } from '../../main/engine/credits.ts';
import { startLocalEngine, type RunningLocalEngine } from '../../main/engine/engine.ts';
import { JOB_KINDS, jobDef } from '../../shared/kinds/index.ts';
import { tempDir } from '../helpers.ts';

const describeError = (e: unknown) => (e instanceof Error ? e.message : String(e));
const open: { services?: Services; engine?: RunningLocalEngine } = {};

afterEach(async () => {
  await open.services?.close();
  await open.engine?.close();
  delete open.services;
  delete open.engine;
});

/** Services talking to a separate engine as to a remote service, its accounts starting with `credits`. */
async function serviceWith(credits: number): Promise<Services> {
  const dir = tempDir();
  open.engine = await startLocalEngine({
    dataDir: join(dir, 'engine'),
    apiKey: 'sk_test_costs_1234',
    speed: 500,
    initialCredits: credits,
  });
  open.services = await createServices(
    {
      dataDir: join(dir, 'data'),
      baseUrl: open.engine.url,
      legacyBaseUrl: open.engine.legacyUrl,
      apiKey: 'sk_test_costs_1234',
    },
    { engineSpeed: 500 },
  );
  return open.services;
}

describe('credits and costs', () => {
  it('against the embedded engine: its own prices and the balance it was started with', async () => {
    open.services = await createServices({ dataDir: tempDir() }, { engineSpeed: 500, engineCredits: 25 });
    const view = await creditsView(open.services, describeError);
    expect(view).toMatchObject({ balance: 25, source: 'local-engine' });
    expect(view.costs.createImageTo3d).toEqual({ credits: CREATE_COSTS.createImageTo3d, basis: ENGINE_BASIS });
    expect(view.costs.uploadAnimationMesh).toEqual({ credits: CREATE_COSTS.uploadAnimationMesh, basis: ENGINE_BASIS });
    expect(view.costs.createRetopology!.credits).toBe(CREATE_COSTS.createRetopology);
    // Follow-ups are free at the engine.
    expect(view.costs.submitTextAnimations!.credits).toBe(0);
    expect(view.costs.refine!.credits).toBe(0);
  });

  it('against a service: image to 3D priced from the list, the rest not published', async () => {
    const services = await serviceWith(1000);
    const view = await creditsView(services, describeError);
    expect(view).toMatchObject({ balance: 1000, source: 'service' });
    expect(view.costs.createImageTo3d).toEqual({ credits: 10, basis: LIST_BASIS });
    expect(view.costs.createImageTo3dLegacy!.credits).toBe(10);
    expect(view.costs.createRetopology).toEqual({ credits: null, basis: UNPUBLISHED_BASIS });
    expect(view.costs.uploadAnimationMesh).toEqual({ credits: null, basis: UNPUBLISHED_BASIS });
  });

  it('against a service whose balance pays for no image to 3D: short, with the price unknown', async () => {
    const services = await serviceWith(4);
    const view = await creditsView(services, describeError);
    expect(view.balance).toBe(4);
    expect(view.costs.createImageTo3d).toEqual({ credits: null, basis: LIST_BASIS, short: true });
  });

  it('says why when the balance cannot be read', async () => {
    const services = await serviceWith(1000);
    await open.engine!.close();
    delete open.engine;
    const view = await creditsView(services, describeError);
    expect(view.balance).toBeNull();
    expect(view.balanceError).toMatch(/balance could not be read/);
  });

  it('every create of every kind has a cost fact', () => {
    for (const kind of JOB_KINDS) {
      const job = jobDef(kind)!;
      expect(Object.keys(job.costs).sort(), kind).toEqual(Object.keys(job.creates).sort());
    }
  });
});
