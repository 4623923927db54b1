import { describe, expect, it } from 'vitest';
import { isAllowedExternal, isAppUrl } from '../../main/electron/policy.ts';
import { MIN_SIZE, windowOptions } from '../../main/electron/window-factory.ts';

const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];

describe('window options', () => {
  it('locks the renderer down and uses the preload', () => {
    const options = windowOptions({ preloadPath: '/app/dist/electron/preload.cjs', workAreas: screen });
    const prefs = options.webPreferences as Record<string, unknown>;
    expect(prefs.preload).toBe('/app/dist/electron/preload.cjs');
    for (const on of ['contextIsolation', 'sandbox', 'webSecurity']) expect(prefs[on], on).toBe(true);
    const off = [
      'nodeIntegration',
      'nodeIntegrationInWorker',
      'nodeIntegrationInSubFrames',
      'allowRunningInsecureContent',
      'webviewTag',
      'spellcheck',
      'navigateOnDragDrop',
    ];
    for (const name of off) expect(prefs[name], name).toBe(false);
    expect(options).toMatchObject({ minWidth: MIN_SIZE.width, minHeight: MIN_SIZE.height, show: false });
  });

  it('restores remembered bounds that are on a screen', () => {
    const options = windowOptions({
      preloadPath: 'p',
      workAreas: screen,
      saved: { x: 100, y: 50, width: 1400, height: 900, maximized: false },
    });
    expect(options).toMatchObject({ x: 100, y: 50, width: 1400, height: 900 });
  });

  it('drops a position that is off every screen now, and never goes under the minimum size', () => {
    const options = windowOptions({
      preloadPath: 'p',
      workAreas: screen,
      saved: { x: 4000, y: 50, width: 200, height: 100, maximized: false },
    });
    expect(options.x).toBeUndefined();
    expect(options.y).toBeUndefined();
    expect(options).toMatchObject({ width: MIN_SIZE.width, height: MIN_SIZE.height });
  });
});

describe('navigation policy', () => {
  it('knows the app origin', () => {
    expect(isAppUrl('app://studio/index.html')).toBe(true);
    expect(isAppUrl('app://other/')).toBe(false);
    expect(isAppUrl('file:///etc/passwd')).toBe(false);
    expect(isAppUrl('https://studio/')).toBe(false);
  });

  it('opens only https addresses of known hosts outside', () => {
    const hosts = ['github.com', 'api.example.com'];
    expect(isAllowedExternal('https://github.com/org/repo', hosts)).toBe(true);
    expect(isAllowedExternal('https://docs.github.com/x', hosts)).toBe(true);
    expect(isAllowedExternal('http://github.com/', hosts)).toBe(false);
    expect(isAllowedExternal('https://github.com.evil.example/', hosts)).toBe(false);
    expect(isAllowedExternal('https://user:pw@github.com/', hosts)).toBe(false);
    expect(isAllowedExternal('file:///etc/passwd', hosts)).toBe(false);
    expect(isAllowedExternal('javascript:alert(1)', hosts)).toBe(false);
  });
});
