// e2e: settings round trip. A key is set through the page: it is shown as "configured" and never again:
// not in the DOM, not in any answer or event the page receives, not in the page's accessible text.
// Then the profile with the key (an address where nothing listens) is made active: the library shows
// the offline banner and the cached jobs, without errors.
import { describe, expect, it } from 'vitest';
import { openApp, poll, textOf, useHarness } from './harness.ts';

// Browser globals used inside page.evaluate (this project type-checks tests without the DOM library).
declare const document: { documentElement: { outerHTML: string } };

const h = useHarness();
const KEY = 'msy_e2e_SECRET_9f8a7b6c5d4e3f2a1b0c';

describe('settings', () => {
  it('stores a key without ever showing it back', async () => {
    const { page } = h;
    const requestsWithKey: string[] = [];
    const responses: Promise<string>[] = [];
    const frames: string[] = [];
    page.on('request', (r) => {
      if ((r.postData() ?? '').includes(KEY) || r.url().includes(KEY)) requestsWithKey.push(new URL(r.url()).pathname);
    });
    page.on('response', (r) => {
      responses.push(
        r.text().then(
          (t) => `${r.url()} ${JSON.stringify(r.headers())} ${t}`,
          () => '',
        ),
      );
    });
    page.on('websocket', (ws) => {
      ws.on('framereceived', (f) => frames.push(String(f.payload)));
      ws.on('framesent', (f) => frames.push(String(f.payload)));
    });
    await openApp(h, '#/settings');
    // The way to real results: the public service is named, with where its keys are made and its price list;
    // its profile (with the documented addresses) is offered first, asking for the key only.
    const service = page.locator('[data-testid="public-service"]');
    await poll(textOf(service)).toContain('Asset Studio is a client for CSM (Common Sense Machines)');
    expect(
      await service.locator('a').evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href)),
    ).toEqual(['https://3d.csm.ai/', 'https://www.csm.ai/pricing', 'https://docs.csm.ai/']);
    expect(await page.locator('tr[data-profile="csm"] code').allTextContents()).toEqual([
      'https://api.csm.ai',
      'https://api.csm.ai:5566',
    ]);
    expect(await textOf(page.locator('[data-testid="built-in-profile"]'))()).toContain('only its API key is needed');
    expect(await page.locator('.key-form button[type="submit"]').innerText()).toBe('Save key and use this profile');
    await h.screenshot('10-settings');

    // A new profile pointing at an address where nothing listens.
    await page.click('button:has-text("New profile")');
    await page.fill('#profile-name', 'studio');
    await page.fill('#profile-base', 'http://127.0.0.1:9');
    await page.click('button:has-text("Save profile")');
    const row = page.locator('tr[data-profile="studio"]');
    await poll(textOf(row.locator('.key-status'))).toBe('Not set');

    // A bad address is refused next to its field.
    await page.fill('#profile-base', 'not a url');
    await page.click('button:has-text("Save profile")');
    await poll(textOf(page.locator('#profile-base-errors'))).not.toBe('');
    await page.fill('#profile-base', 'http://127.0.0.1:9');

    await page.fill('#api-key', KEY);
    await page.click('button:has-text("Save key")');
    await poll(textOf(row.locator('.key-status'))).toContain('Configured');
    await poll(textOf(page.locator('.key-form .key-status'))).toContain('A key is configured');
    expect(await page.locator('#api-key').inputValue()).toBe('');
    await h.screenshot('11-settings-key-configured');

    // Nowhere to be seen.
    expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toContain(KEY);
    expect(await page.locator('body').ariaSnapshot()).not.toContain(KEY);
    expect(await page.locator('body').innerText()).not.toContain(KEY);
    // The page sent it once (key.set), and nothing it received carries it.
    expect(requestsWithKey).toEqual(['/api/call/key.set']);
    for (const text of await Promise.all(responses)) expect(text).not.toContain(KEY);
    for (const frame of frames) expect(frame).not.toContain(KEY);

    // Replace, then remove.
    await page.fill('#api-key', `${KEY}_2`);
    await page.click('button:has-text("Replace key")');
    await poll(textOf(page.locator('.key-form .key-status'))).toContain('Key saved');
    await page.click('button:has-text("Remove key")');
    await poll(textOf(row.locator('.key-status'))).toBe('Not set');
    expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toContain(KEY);
  });

  it('works offline from the cache when the active service cannot be reached', async () => {
    const { page } = h;
    // A job made on the local engine first, so there is something cached to show.
    await h.call('create', {
      endpoint: 'createTextToImage',
      body: { prompt: 'a red barrel' },
      label: 'red barrel',
    });
    await page.fill('#api-key', KEY);
    await page.click('button:has-text("Save key")');
    await page.locator('tr[data-profile="studio"] input[type="radio"]').click();
    await poll(async () => await page.locator('tr[data-profile="studio"] input[type="radio"]').isChecked()).toBe(true);
    await page.click('nav[aria-label="Main"] >> text=Library');
    await page.locator('.banner-offline').waitFor({ timeout: 30_000 });
    await poll(textOf(page.locator('.job-list'))).toContain('red barrel');
    expect(await page.locator('.error-box').count()).toBe(0);
    await h.screenshot('12-library-offline');
    expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toContain(KEY);
  });

  it('says what is wrong next to each settings field, and changing the field takes the message away', async () => {
    const { page } = h;
    await openApp(h, '#/settings');
    const refused = [
      { field: '#wh-port', bad: '70000', good: '8788', save: 'Save webhooks' },
      { field: '#wh-path', bad: 'webhooks', good: '/webhooks', save: 'Save webhooks' },
      { field: '#cache-max', bad: '1', good: '500', save: 'Save cache settings' },
    ];
    for (const { field, bad, good, save } of refused) {
      await page.fill(field, bad);
      await page.click(`button:has-text("${save}")`);
      await poll(textOf(page.locator(`${field}-errors`))).not.toBe('');
      expect(await page.locator(field).getAttribute('aria-invalid')).toBe('true');
      await page.fill(field, good);
      await poll(() => page.locator(`${field}-errors`).count()).toBe(0);
      expect(await page.locator(field).getAttribute('aria-invalid')).toBeNull();
    }
    // A valid change is saved, and said so in its form.
    await page.selectOption('#export-engine', 'unity');
    await page.click('button:has-text("Save export preset")');
    await poll(textOf(page.locator('section[aria-labelledby="export-heading"] [role="status"]'))).toBe('Saved.');
    expect((await h.call('settings.get', {})).export.engine).toBe('unity');
    // Secrets are typed into fields the browser neither fills in nor spellchecks.
    for (const secret of ['#api-key', '#wh-secret']) {
      expect(await page.locator(secret).getAttribute('type')).toBe('password');
      expect(await page.locator(secret).getAttribute('autocomplete')).toBe('new-password');
    }
  });
});
