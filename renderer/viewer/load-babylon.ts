// Loads the viewer's Babylon.js side (babylon.ts, built as its own file `viewer/babylon.js` beside app.js)
// once per page. The viewer screens call it as soon as they show, so Babylon is usually in memory by the
// time a file is opened.
export type Babylon = typeof import('./babylon.ts');

let loading: Promise<Babylon> | undefined;

export function loadBabylon(): Promise<Babylon> {
  // A URL esbuild leaves alone (the file is a separate build): resolved against the page, like app.js.
  loading ??= (import(new URL('viewer/babylon.js', document.baseURI).href) as Promise<Babylon>).catch(
    (error: unknown) => {
      loading = undefined; // a failed fetch may succeed on the next try
      throw new Error(
        `The 3D viewer could not be loaded (${error instanceof Error ? error.message : String(error)}). Reload the window to try again.`,
      );
    },
  );
  return loading;
}
