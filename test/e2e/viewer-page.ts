// The viewer's page in e2e tests: a harness with WebGL on #/viewer, waiting for a model to be shown and
// still, its stats, and changes of the view that wait for the new still frame.
import { beforeAll, expect } from 'vitest';
import { canvasPixels } from './canvas.ts';
import { poll, useHarness, type Harness, type HarnessOptions } from './harness.ts';

/** A wait for the viewer (a budget for a loaded machine, not a speed check). */
const VIEWER_WAIT_MS = 60_000;

/** The harness of a viewer test file: WebGL, screenshots in test-results/viewer/, the app opened at `open`. */
export function useViewerHarness(open = '#/viewer', options: HarnessOptions = {}): Harness {
  const h = useHarness({ webgl: true, shots: 'viewer', ...options }, open);
  if (open === '#/viewer') {
    beforeAll(async () => {
      await h.page.waitForSelector('#viewer-file');
    });
  }
  return h;
}

/** Opens local files in the viewer's file picker. */
export async function openFiles(h: Harness, paths: string | string[]): Promise<void> {
  await h.page.setInputFiles('#viewer-file', paths);
}

/**
 * Waits until the viewer inside `scope` has shown its model (named `name`, if given) and its render loop
 * has stopped.
 */
export async function modelShown(
  h: Harness,
  { name, scope = '' }: { name?: string; scope?: string } = {},
): Promise<void> {
  const viewer = h.page.locator(`${scope} .viewer`.trim());
  const state = async () =>
    name === undefined
      ? ((await viewer.getAttribute('data-state')) ?? '')
      : `${await viewer.getAttribute('data-state')} ${await viewer.getAttribute('data-name')}`;
  await poll(state, VIEWER_WAIT_MS).toBe(name === undefined ? 'ready' : `ready ${name}`);
  await poll(
    async () => (await viewer.locator('.viewer-canvas').getAttribute('data-rendering')) ?? '',
    VIEWER_WAIT_MS,
  ).toBe('idle');
}

/** A number the viewer inside `scope` shows in its stats (`triangles`, `vertices`...). */
export async function stat(h: Harness, name: string, scope = ''): Promise<number> {
  return Number((await h.page.locator(`${scope} .viewer [data-stat="${name}"]`.trim()).innerText()).replace(/,/g, ''));
}

/** Waits until `name` is shown and still; checks that it drew visible pixels; takes a screenshot of the viewer. */
export async function expectRendered(h: Harness, name: string, shot: string): Promise<void> {
  await modelShown(h, { name });
  const pixels = await canvasPixels(h.page);
  await h.screenshot(shot, h.page.locator('.viewer'));
  expect(pixels.colours, `${name}: colours on the canvas`).toBeGreaterThan(20);
  expect(pixels.covered, `${name}: share of the canvas covered by the model`).toBeGreaterThan(0.02);
  expect(await stat(h, 'triangles')).toBeGreaterThan(0);
}

/** Does something that changes the view, then waits for at least one new frame and the loop to stop again. */
export async function changeView(h: Harness, action: () => Promise<unknown>): Promise<void> {
  const canvas = h.page.locator('.viewer-canvas');
  const environment = h.page.locator('.viewer-environment');
  const frames = await canvas.getAttribute('data-frames');
  await action();
  await poll(
    async () =>
      (await canvas.getAttribute('data-frames')) !== frames &&
      (await canvas.getAttribute('data-rendering')) === 'idle' &&
      ((await environment.count()) === 0 || (await environment.getAttribute('data-reading')) === null),
    VIEWER_WAIT_MS,
  ).toBe(true);
}
