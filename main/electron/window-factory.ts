// The options of the main window: locked-down web preferences, the preload, a minimum size, and the size
// and position remembered from the last run (dropped when they are off every screen now). Pure.
import type { BrowserWindowConstructorOptions, Rectangle } from 'electron';
import * as z from 'zod';

export const windowState = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  maximized: z.boolean().default(false),
});
export type WindowState = z.output<typeof windowState>;

export const WINDOW_STATE_KEY = 'window';
export const MIN_SIZE = { width: 960, height: 600 } as const;
export const DEFAULT_SIZE = { width: 1280, height: 800 } as const;
/** How much of the window must be on a screen for the remembered position to be kept. */
const MIN_VISIBLE = 100;

export interface WindowInputs {
  preloadPath: string;
  /** The remembered state, if any. */
  saved?: WindowState | undefined;
  /** The work areas of the screens now. */
  workAreas: readonly Rectangle[];
  title?: string;
}

export function windowOptions(inputs: WindowInputs): BrowserWindowConstructorOptions {
  const saved = inputs.saved;
  const width = Math.max(MIN_SIZE.width, saved?.width ?? DEFAULT_SIZE.width);
  const height = Math.max(MIN_SIZE.height, saved?.height ?? DEFAULT_SIZE.height);
  const position =
    saved?.x !== undefined &&
    saved.y !== undefined &&
    onScreen({ x: saved.x, y: saved.y, width, height }, inputs.workAreas)
      ? { x: saved.x, y: saved.y }
      : {};
  return {
    title: inputs.title ?? 'Asset Studio',
    width,
    height,
    ...position,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false, // shown on ready-to-show: no white flash
    backgroundColor: '#1e1f22',
    webPreferences: {
      preload: inputs.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
    },
  };
}

function onScreen(bounds: Rectangle, areas: readonly Rectangle[]): boolean {
  return areas.some((a) => {
    const w = Math.min(bounds.x + bounds.width, a.x + a.width) - Math.max(bounds.x, a.x);
    const h = Math.min(bounds.y + bounds.height, a.y + a.height) - Math.max(bounds.y, a.y);
    return w >= MIN_VISIBLE && h >= MIN_VISIBLE;
  });
}
