// Viewer: time from opening a model to its first rendered frame, in headless Chromium with WebGL by
// SwiftShader (as the e2e tests), for every real GLB fixture and a generated 1M-triangle GLB:
//  - app: the viewer route (#/viewer) of the real web host (renderer built into a temporary folder), the
//    file given to its file input; it has drawn the model when its viewer says ready (it does so right after
//    the first frame drawn from a ready scene, in the same task);
//  - bare: a page that only has Babylon.js (Engine, Scene, camera, light, the glTF loader; bundled here with
//    esbuild), loading the same file from the same kind of file input and drawing frames until one is drawn
//    from a ready scene.
// Both pages draw the same thing: the bare canvas has the app's canvas size, its camera frames the model as
// the app does, and it lights PBR materials with the app's own studio environment file (as the app does by
// default); a third pair of columns has both with lights only (the app with Environment None). Both make
// their engine (and read the environment) when the page loads, before the open; the app also prepares its
// glTF loader then (renderer/viewer/warm-up.ts), which the bare page, loading the file cold, does not.
// Times are taken in the page (see `Open`): from the open to the end of the task that drew that frame, and
// to the page's next animation frame (the frame taken by the browser, the app's panels laid out).
// "first" is the first open in a fresh browser context, "second" the same file opened in a new page of that
// context (warm HTTP cache). Before each open both pages have finished loading (network idle). Then a job's
// GLB opened from the download cache (the app's list of downloaded models) against the bare page loading
// the same bytes by URL, and the frame time of the animated Fox.glb while its first clip plays (app: the
// viewer's play button; bare: the animation group).
// Usage: node bench/viewer.ts [--rounds N] [--only NAME] (--only: the files whose name contains NAME)
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildGlb } from '../main/engine/outputs/index.ts';
import { startWebHost } from '../main/host/web-host.ts';
import { buildRenderer } from '../renderer/build.ts';

const ROOT = resolve(import.meta.dirname, '..');
const FIXTURES = resolve(ROOT, '..', 'shared', 'fixtures', 'real', 'glb');
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, only: { type: 'string' } } });
const rounds = Number(values.rounds);

const BARE_ENTRY = `
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js';
import { Engine } from '@babylonjs/core/Engines/engine.js';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight.js';
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js';
import { HDRCubeTexture } from '@babylonjs/core/Materials/Textures/hdrCubeTexture.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { Scene } from '@babylonjs/core/scene.js';
import '@babylonjs/core/Animations/index.js';
import '@babylonjs/core/Bones/index.js';
import '@babylonjs/core/Meshes/instancedMesh.js';
import '@babylonjs/loaders/glTF/2.0/index.js';
const canvas = document.getElementById('c');
// Made when the page loads, as the app makes its viewer when the viewer shows (before a file is chosen).
const engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: true, antialias: true }, true);
const scene = new Scene(engine);
const camera = new ArcRotateCamera('camera', -Math.PI / 3, Math.PI / 2.6, 4, Vector3.Zero(), scene);
new HemisphericLight('sky', new Vector3(0.2, 1, 0.3), scene);
let container;
// ?environment: the app's studio environment file, read as the app reads it (128 px faces, not prefiltered
// on a software renderer), so that both pages light PBR materials the same way (image-based lighting).
if (new URLSearchParams(location.search).has('environment')) {
  const software = /swiftshader|llvmpipe|softpipe|software/i.test(engine.getGlInfo().renderer);
  const studio = new HDRCubeTexture('studio.hdr', scene, 128, false, true, false, !software, () => {
    scene.environmentTexture = studio;
    document.body.dataset.ready = 'yes';
  });
} else document.body.dataset.ready = 'yes';
// The camera frames the model as the app's viewer does (same angles, the bounding sphere filling the view),
// so that both pages shade the same pixels: a fixed camera shows a corner of a large model, or nothing.
const frame = () => {
  const { min, max } = scene.getWorldExtends((m) => m.getTotalVertices() > 0);
  const size = max.subtract(min);
  const radius = Math.max(size.length() / 2, 1e-3);
  const distance = radius / Math.sin(Math.min(camera.fov, camera.fov * (engine.getAspectRatio(camera) || 1)) / 2);
  camera.setTarget(min.add(size.scale(0.5)));
  camera.alpha = -Math.PI / 3;
  camera.beta = Math.PI / 2.6;
  camera.radius = distance * 1.05;
  camera.minZ = distance / 500;
  camera.maxZ = distance * 50;
};
// The first frame that shows the model: frames until one is drawn from a ready scene (shaders compiled,
// textures uploaded), as the app's loop does (not whenReadyAsync, which checks only every 100 ms).
const drawWhenReady = () => new Promise((done) => {
  const draw = () => {
    const ready = scene.isReady();
    scene.render();
    if (ready) {
      globalThis.__drawn = performance.now();
      requestAnimationFrame(() => (globalThis.__next = performance.now()));
      done();
    } else requestAnimationFrame(draw);
  };
  draw();
});
const show = async (source, options, name) => {
  container = await LoadAssetContainerAsync(source, scene, options).catch((error) => {
    document.body.dataset.rendered = 'error: ' + error.message;
    throw error;
  });
  for (const g of container.animationGroups) g.stop();
  container.addAllToScene();
  frame();
  await drawWhenReady();
  document.body.dataset.rendered = name;
};
document.getElementById('f').addEventListener('change', async (e) => {
  const file = e.target.files[0];
  const count = Number(document.body.dataset.count ?? 0) + 1;
  document.body.dataset.count = String(count);
  await show(file, { pluginExtension: '.glb', rootUrl: 'file:' }, file.name + ' ' + count);
});
// Opening by URL (the same bytes as a cached output of the app): what a bare page does with a model URL.
globalThis.openUrl = (url, name) => {
  globalThis.__t0 = performance.now();
  return show(url, { pluginExtension: '.glb' }, name);
};
globalThis.playFirst = () => {
  container.animationGroups[0].start(true);
  let frames = 0;
  engine.runRenderLoop(() => { scene.render(); frames++; });
  globalThis.frames = () => frames;
};
`;

async function buildBare(dir: string, canvas: { width: number; height: number }): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await build({
    stdin: { contents: BARE_ENTRY, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    outfile: join(dir, 'bare.js'),
    logLevel: 'error',
  });
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><body style="margin:0"><input type="file" id="f"><canvas id="c" style="width:${canvas.width}px;height:${canvas.height}px"></canvas><script type="module" src="bare.js"></script></body>`,
  );
}

function serve(dir: string): Promise<{ url: string; close(): void }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
  const server = createServer((req, res) => {
    try {
      const body = readFileSync(join(dir, new URL(req.url!, 'http://x').pathname.replace(/^\/$/, '/index.html')));
      res
        .writeHead(200, { 'content-type': types[extname(req.url!)] ?? 'text/html', 'cache-control': 'max-age=3600' })
        .end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () =>
      done({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() }),
    ),
  );
}

/**
 * The times are taken in the page, on its clock, from the open (the input's change event; a call for a URL)
 * to `drawn`, the end of the task that drew the model's first frame from a ready scene, and to `next`, the
 * page's next animation frame (by then the browser has taken that frame; the app has laid out its panels).
 * Both pages note both moments the same way: the bare page right after that frame, the app when its viewer
 * says ready, which it does in the same task, right after that frame (a MutationObserver's callback).
 */
interface Open {
  drawn: number;
  next: number;
}
const CLOCK = () => {
  const g = globalThis as any;
  g.document.addEventListener('change', () => (g.__t0 = g.performance.now()), true);
};
const TIMES = () => {
  const g = globalThis as any;
  return g.__next === undefined ? undefined : { drawn: g.__drawn - g.__t0, next: g.__next - g.__t0 };
};
async function waitTimes(page: Page): Promise<Open> {
  return (await (await page.waitForFunction(TIMES, undefined, { polling: 'raf', timeout: 120_000 })).jsonValue())!;
}

/** Gives the file to the input, waits until `rendered` holds; the page's times. */
async function timeOpen<A>(
  page: Page,
  input: string,
  file: string,
  rendered: (arg: A) => boolean,
  arg: A,
): Promise<Open> {
  await page.setInputFiles(input, file);
  await page.waitForFunction(rendered as (arg: unknown) => boolean, arg as unknown, {
    polling: 'raf',
    timeout: 120_000,
  });
  return waitTimes(page);
}

// The app is done when the viewer, having gone through "loading" (seen by a MutationObserver), says ready
// and its render loop has stopped: it stops after a frame drawn from a ready, still scene (renderer/viewer/
// scene/render-loop.ts). The observer notes the times (ARM).
// Page functions (this project type-checks without the DOM library, so the page's globals are `any`).
const APP_RENDERED = () => {
  const g = globalThis as any;
  const v = g.document.querySelector('.viewer');
  const c = g.document.querySelector('.viewer-canvas');
  if (!v || !g.__seenLoading || v.dataset.state !== 'ready') return false;
  return c.dataset.rendering === 'idle' && Number(c.dataset.frames ?? 0) > g.__loadingFrames;
};

const ARM = () => {
  const g = globalThis as any;
  g.__seenLoading = false;
  g.__loadingFrames = Infinity;
  g.__observer?.disconnect();
  const v = g.document.querySelector('.viewer');
  g.__drawn = g.__next = undefined;
  g.__observer = new g.MutationObserver(() => {
    if (v.dataset.state === 'loading' && !g.__seenLoading) {
      g.__seenLoading = true;
      g.__loadingFrames = Number(g.document.querySelector('.viewer-canvas').dataset.frames ?? 0);
    }
    if (v.dataset.state === 'ready' && g.__seenLoading && g.__drawn === undefined) {
      g.__drawn = g.performance.now();
      g.requestAnimationFrame(() => (g.__next = g.performance.now()));
    }
  });
  g.__observer.observe(v, { attributes: true, attributeFilter: ['data-state'] });
};

const BARE_RENDERED = (want: string) => {
  const rendered = (globalThis as any).document.body.dataset.rendered;
  if (rendered?.startsWith('error: ')) throw new Error(rendered);
  return rendered === want;
};

type Round = { first: Open; second: Open; plain: Open };

async function appRound(browser: Browser, url: string, file: string): Promise<Round> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(CLOCK);
  const open = async (plain = false) => {
    const page = await context.newPage();
    await page.goto(`${url}#/viewer`);
    await page.waitForSelector('#viewer-file');
    await page.waitForLoadState('networkidle'); // the viewer's code has arrived, as the bare page's has at "load"
    if (plain) {
      // Lights only, as the bare page: no image-based lighting, whose shader variant costs SwiftShader more to compile.
      await page.click('button[data-environment="none"]');
      await page.waitForSelector('button[data-environment="none"][aria-pressed="true"]');
    }
    await page.evaluate(ARM);
    const ms = await timeOpen(page, '#viewer-file', file, APP_RENDERED, undefined);
    await page.close();
    return ms;
  };
  const first = await open();
  const second = await open(); // a new page in the same context: the HTTP cache holds the app's chunks
  const plain = await open(true);
  await context.close();
  return { first, second, plain };
}

async function bareRound(browser: Browser, url: string, file: string): Promise<Round> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(CLOCK);
  const name = file.split('/').pop()!;
  const open = async (plain = false) => {
    const page = await context.newPage();
    await page.goto(plain ? url : `${url}?environment`);
    await page.waitForSelector('body[data-ready]');
    await page.waitForLoadState('networkidle');
    const ms = await timeOpen(page, '#f', file, BARE_RENDERED, `${name} 1`);
    await page.close();
    return ms;
  };
  const first = await open();
  const second = await open();
  const plain = await open(true); // lights only, as the app with Environment None
  await context.close();
  return { first, second, plain };
}

/**
 * Open from the download cache: a finished job's GLB, picked in the app's "Or open a downloaded model" list
 * (served from the host's /cache/ route), against the bare page loading the same bytes by URL from its own
 * server. First in a fresh context, then again in a new page of it (the HTTP cache holds the file).
 */
async function cacheRound(
  browser: Browser,
  appUrl: string,
  option: string,
  bareUrl: string,
  glbUrl: string,
): Promise<{ app: Open[]; bare: Open[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(CLOCK);
  const app: Open[] = [];
  const bare: Open[] = [];
  for (let i = 0; i < 2; i++) {
    const page = await context.newPage();
    await page.goto(`${appUrl}#/viewer`);
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('#viewer-cached option').length > 1);
    await page.waitForLoadState('networkidle');
    await page.evaluate(ARM);
    await page.selectOption('#viewer-cached', option);
    await page.waitForFunction(APP_RENDERED, undefined, { polling: 'raf', timeout: 120_000 });
    app.push(await waitTimes(page));
    await page.close();
  }
  for (let i = 0; i < 2; i++) {
    const page = await context.newPage();
    await page.goto(`${bareUrl}?environment`);
    await page.waitForSelector('body[data-ready]');
    await page.waitForLoadState('networkidle');
    await page.evaluate(([u, n]) => (globalThis as any).openUrl(u, n), [glbUrl, `cached ${i}`] as const);
    await page.waitForFunction(BARE_RENDERED, `cached ${i}`, { polling: 'raf', timeout: 120_000 });
    bare.push(await waitTimes(page));
    await page.close();
  }
  await context.close();
  return { app, bare };
}

/** ms per frame over 3 s of the Fox's first clip playing. */
async function foxFrames(
  browser: Browser,
  appUrl: string,
  bareUrl: string,
  fox: string,
): Promise<{ app: number; bare: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const app = await context.newPage();
  await app.goto(`${appUrl}#/viewer`);
  await app.waitForSelector('#viewer-file');
  await app.setInputFiles('#viewer-file', fox);
  await app.waitForSelector('.anim-play', { timeout: 60_000 });
  await app.click('.anim-play');
  const appFrames = () => app.locator('.viewer-canvas').getAttribute('data-frames').then(Number);
  await app.waitForTimeout(500);
  const a0 = await appFrames();
  await app.waitForTimeout(3000);
  const appMs = 3000 / ((await appFrames()) - a0);
  await app.close();
  const bare = await context.newPage();
  await bare.goto(`${bareUrl}?environment`);
  await bare.waitForSelector('body[data-ready]');
  await bare.setInputFiles('#f', fox);
  await bare.waitForFunction(BARE_RENDERED, 'Fox.glb 1');
  await bare.evaluate(() => (globalThis as any).playFirst());
  await bare.waitForTimeout(500);
  const bareFrames = () => bare.evaluate(() => Number((globalThis as any).frames()));
  const b0 = await bareFrames();
  await bare.waitForTimeout(3000);
  const bareMs = 3000 / ((await bareFrames()) - b0);
  await context.close();
  return { app: appMs, bare: bareMs };
}

/** The CSS size of the app's viewer canvas at the bench's window size. */
async function appCanvasSize(browser: Browser, url: string): Promise<{ width: number; height: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${url}#/viewer`);
  const box = await (await page.waitForSelector('.viewer-canvas')).boundingBox();
  await context.close();
  if (!box) throw new Error('the viewer canvas is not shown');
  return { width: Math.round(box.width), height: Math.round(box.height) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${Math.round(ms)} ms`.padStart(9);

const work = mkdtempSync(join(tmpdir(), 'bench-viewer-'));
const { outDir } = await buildRenderer({ outDir: join(work, 'renderer'), minify: true });
const big = join(work, 'generated-1M.glb');
writeFileSync(big, buildGlb({ seed: 'bench-1m', targetFaces: 1_000_000 }));
const host = await startWebHost({ dataDir: join(work, 'data'), rendererDir: outDir });
const bare = await serve(join(work, 'bare'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--use-angle=swiftshader',
    '--enable-unsafe-swiftshader',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  // The bare page's canvas is given the size of the app's viewer canvas: the same number of pixels to shade.
  await buildBare(join(work, 'bare'), await appCanvasSize(browser, host.url));
  copyFileSync(join(outDir, 'environment', 'studio.hdr'), join(work, 'bare', 'studio.hdr')); // the app's own file
  const files = ['2CylinderEngine.glb', 'BoxTextured.glb', 'Fox.glb', 'm2m-sample-rig.glb']
    .map((f) => join(FIXTURES, f))
    .concat(big)
    .filter((f) => values.only === undefined || basename(f).includes(values.only));
  const warmUp = join(FIXTURES, 'BoxTextured.glb');
  await appRound(browser, host.url, warmUp);
  await bareRound(browser, bare.url, warmUp);
  // One row: the file, its size, then app, bare and their ratio for each pair of medians.
  const row = (name: string, bytes: number, pairs: [number, number][]) =>
    `${name.padEnd(22)} ${`${(bytes / 2 ** 20).toFixed(1)} MB`.padStart(8)}${pairs.map(([a, b]) => `  ${fmt(a)}  ${fmt(b)}   ${(a / b).toFixed(2).padStart(5)}×`).join('')}`;
  const kinds = ['first', 'second', 'plain'] as const;
  const pairsOf = (app: Round[], raw: Round[], at: keyof Open) =>
    kinds.map((k) => [median(app.map((r) => r[k][at])), median(raw.map((r) => r[k][at]))] as [number, number]);
  const header = [
    '                                  studio environment (both pages)                          lights only (both pages)',
    'file                       size     app first  bare first   ratio   app second  bare second  ratio    app second  bare second  ratio',
  ];
  const drawnRows: string[] = [];
  const nextRows: string[] = [];
  for (const file of files) {
    const app: Round[] = [];
    const raw: Round[] = [];
    for (let i = 0; i < rounds; i++) {
      app.push(await appRound(browser, host.url, file));
      raw.push(await bareRound(browser, bare.url, file));
    }
    const name = file.split('/').pop()!;
    drawnRows.push(row(name, statSync(file).size, pairsOf(app, raw, 'drawn')));
    nextRows.push(row(name, statSync(file).size, pairsOf(app, raw, 'next')));
    console.error(`  ${drawnRows.at(-1)}`); // progress
  }
  // A finished image-to-3D job of the embedded engine, its GLB in the download cache.
  const image = `data:image/png;base64,${readFileSync(resolve(FIXTURES, '..', 'images', 'chair.png')).toString('base64')}`;
  const created = (await host.bridge.call('create', { endpoint: 'createImageTo3d', body: { image_url: image } })) as {
    job: { remoteId: string };
  };
  let cached: { sessionId: string; kind: string } | undefined;
  for (let tries = 0; !cached; tries++) {
    if (tries > 1200) throw new Error('the job GLB never reached the cache');
    await new Promise((r) => setTimeout(r, 50));
    const { models } = (await host.bridge.call('cache.models', {})) as {
      models: { sessionId: string; kind: string }[];
    };
    cached = models.find((m) => m.sessionId === created.job.remoteId && m.kind === 'glb');
  }
  copyFileSync(host.bridge.services.cache.open(cached.sessionId, cached.kind)!, join(work, 'bare', 'cached.glb'));
  const cacheRounds: { app: Open[]; bare: Open[] }[] = [];
  for (let i = 0; i < rounds; i++)
    cacheRounds.push(
      await cacheRound(browser, host.url, `${cached.sessionId}\n${cached.kind}`, bare.url, `${bare.url}cached.glb`),
    );
  const cachedBytes = statSync(join(work, 'bare', 'cached.glb')).size;
  for (const [rows, at] of [
    [drawnRows, 'drawn'],
    [nextRows, 'next'],
  ] as const) {
    rows.push(
      row(
        'job GLB from the cache',
        cachedBytes,
        [0, 1].map(
          (k) =>
            [median(cacheRounds.map((r) => r.app[k]![at])), median(cacheRounds.map((r) => r.bare[k]![at]))] as [
              number,
              number,
            ],
        ),
      ),
    );
  }
  console.log(
    `viewer: open → first frame drawn with the model, median of ${rounds} rounds (headless Chromium, SwiftShader WebGL, node ${process.version})`,
  );
  console.log([...header, ...drawnRows].join('\n'));
  console.log(
    `\nthe same opens, until the page's next animation frame (the drawn frame taken by the browser; the app's panels laid out)`,
  );
  console.log([...header, ...nextRows].join('\n'));
  const fox = await foxFrames(browser, host.url, bare.url, join(FIXTURES, 'Fox.glb'));
  console.log(
    `Fox.glb playing its first clip: app ${fox.app.toFixed(1)} ms/frame, bare ${fox.bare.toFixed(1)} ms/frame`,
  );
} finally {
  await browser.close();
  bare.close();
  await host.close();
  rmSync(work, { recursive: true, force: true });
}
