// e2e, issue #26 item 1: the app signs in through its token link without a cookie carrying the token (a browser
// sends cookies of 127.0.0.1 to every other port there): the page keeps the token in sessionStorage, takes it
// out of the address bar, and a reload of the tab keeps working, commands and the live events socket alike.
import { describe, expect, it } from 'vitest';
import { WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';
import { openApp, poll, textOf, useHarness } from './harness.ts';

// Browser globals used inside page.evaluate (tests type-check without the DOM library).
declare const sessionStorage: { getItem(key: string): string | null };
declare const document: { cookie: string };

const h = useHarness({}, undefined);

describe('the token link', () => {
  it('signs the app in through sessionStorage, not a cookie, and a reload keeps it signed in', async () => {
    const { page } = h;
    await openApp(h);
    expect(new URL(page.url()).search).toBe(''); // the token left the address bar
    expect(await page.evaluate((key) => sessionStorage.getItem(key), WEB_PROTOCOL.tokenStorageKey)).toBe(h.host.token);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const cookies = await h.context.cookies();
    expect(cookies.find((c) => c.value.includes(h.host.token))).toBeUndefined();
    expect(cookies.every((c) => c.path === WEB_PROTOCOL.cachePrefix && c.httpOnly)).toBe(true);
    await poll(textOf(page.locator('[data-testid="live"]'))).toContain('Live');

    // What the browser sends by itself (its cookies) does not sign a request in.
    const cookieOnly = await page.evaluate(
      async () =>
        (
          await fetch('/api/call/app.info', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          })
        ).status,
    );
    expect(cookieOnly).toBe(401);

    // A reload of the tab (the address has no token any more) keeps working through sessionStorage.
    await page.reload();
    await page.waitForSelector('#app-root[data-ready="true"]', { timeout: 60_000 });
    expect(new URL(page.url()).search).toBe('');
    await poll(textOf(page.locator('[data-testid="live"]'))).toContain('Live');
    expect((await h.call('app.info', {})).transport).toBe('web');
    expect(h.pageErrors.filter((e) => !e.includes('favicon') && !e.includes('401'))).toEqual([]);
  });
});
