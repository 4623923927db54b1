// e2e: the header says where the connection comes from (here ASSET_STUDIO_BASE_URL, given to the web host
// as `npm run web` does), and its Live dot follows the service: green while it answers, off with the
// reason once it stops (together with the offline banner, never green beside it). The key never reaches the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, startTestEngine, type TestEngine } from '../engine/helpers.ts';
import { openApp, poll, textOf, useHarness } from './harness.ts';

// Browser globals used inside page.evaluate (this project type-checks tests without the DOM library).
declare const document: { documentElement: { outerHTML: string } };

let service: TestEngine;

beforeAll(async () => {
  service = await startTestEngine();
});

afterAll(async () => {
  await service?.dispose().catch(() => undefined);
});

const h = useHarness(() => ({
  connectionSources: {
    env: {
      ASSET_STUDIO_BASE_URL: service.url,
      ASSET_STUDIO_LEGACY_BASE_URL: service.legacyUrl,
      ASSET_STUDIO_API_KEY: KEY,
    },
  },
  healthIntervalMs: 300,
}));

describe('connection in the header', () => {
  it('shows the origin, Live while the service answers, and Offline with the reason once it stops', async () => {
    const { page } = h;
    await openApp(h);
    const origin = page.locator('[data-testid="connection-origin"]');
    const live = page.locator('[data-testid="live"]');
    await poll(textOf(origin)).toBe('Service · environment');
    expect(await origin.getAttribute('data-origin')).toBe('environment');
    expect(await origin.getAttribute('title')).toContain(`The service at ${service.url}, from ASSET_STUDIO_BASE_URL`);
    await poll(textOf(live)).toMatch(/^Live: The service answered/);
    expect(await live.getAttribute('class')).toContain('conn-open');
    await h.screenshot('40-connection-live');

    await page.click('[data-testid="connection-origin"]');
    await poll(textOf(page.locator('[data-testid="connection-sentence"]'))).toContain(
      `The service at ${service.url}, from ASSET_STUDIO_BASE_URL; API key from ASSET_STUDIO_API_KEY.`,
    );
    await poll(textOf(page.locator('[data-testid="profiles-overridden"]'))).toContain(
      'started with ASSET_STUDIO_BASE_URL',
    );

    await service.close();
    await poll(textOf(live), 15_000).toMatch(/^Offline: The service cannot be reached: .*refused the connection/);
    expect(await live.getAttribute('class')).toContain('conn-offline');
    expect(await live.getAttribute('title')).toMatch(/The service cannot be reached: .*refused the connection/);
    await poll(textOf(page.locator('.banner-offline'))).toContain('Working offline.');
    expect(await textOf(live)()).not.toMatch(/^Live/);
    await h.screenshot('41-connection-offline');

    const html = await page.evaluate(() => document.documentElement.outerHTML);
    expect(html).not.toContain(KEY);
  });
});
