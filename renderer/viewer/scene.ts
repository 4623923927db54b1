// The Babylon.js side of the viewer, in its own lazily loaded chunk (renderer/viewer/viewer.tsx imports it
// with import()). Opens GLB/glTF, OBJ (+MTL, textures) and FBX from a URL or from local files, frames the
// camera on the model, and renders on demand: the render loop runs only while the camera moves, a pointer
// is down, or the scene is still getting ready; then it stops (the canvas carries data-rendering and
// data-frames so this can be checked).
//
// Animations: the loaded file's animation groups are its clips; one is selected (paused on its first
// frame) after loading, and the render loop runs while it plays. The skeleton can be shown as lines between
// bone positions (drawn over the model), and the bones standing for one of the 17 joints highlighted.
//
// Nothing is fetched beyond the page's own origin: Tools.ScriptBaseUrl points Babylon's CDN URLs (Draco,
// meshopt, Basis) at `babylon/` beside app.js, where renderer/build.ts copies the decoders shipped in
// @babylonjs/core/assets; KTX2 textures are decoded by the app's own worker there (ktx2/).
import '@babylonjs/core/Animations/animatable.js';
import type { AnimationGroup } from '@babylonjs/core/Animations/animationGroup.js';
import type { Skeleton } from '@babylonjs/core/Bones/skeleton.js';
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js';
import { Engine } from '@babylonjs/core/Engines/engine.js';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight.js';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight.js';
import type { AssetContainer } from '@babylonjs/core/assetContainer.js';
import { LoadAssetContainerAsync, RegisterSceneLoaderPlugin } from '@babylonjs/core/Loading/sceneLoader.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer.js';
import type { Material } from '@babylonjs/core/Materials/material.js';
import { Effect } from '@babylonjs/core/Materials/effect.js';
import { PBRBaseMaterial } from '@babylonjs/core/Materials/PBR/pbrBaseMaterial.js';
import { PBRMaterial } from '@babylonjs/core/Materials/PBR/pbrMaterial.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { DynamicTexture } from '@babylonjs/core/Materials/Textures/dynamicTexture.js';
import { BaseTexture } from '@babylonjs/core/Materials/Textures/baseTexture.js';
import { CubeTexture } from '@babylonjs/core/Materials/Textures/cubeTexture.js';
import { HDRCubeTexture } from '@babylonjs/core/Materials/Textures/hdrCubeTexture.js';
import { Texture } from '@babylonjs/core/Materials/Textures/texture.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import type { Observer } from '@babylonjs/core/Misc/observable.js';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh.js';
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder.js';
import { FilesInputStore } from '@babylonjs/core/Misc/filesInputStore.js';
import { Tools } from '@babylonjs/core/Misc/tools.js';
import { Scene } from '@babylonjs/core/scene.js';
import { FBXFileLoaderMetadata } from '@babylonjs/loaders/FBX/fbxFileLoader.metadata.js';
import { registerBuiltInGLTFExtensions } from '@babylonjs/loaders/glTF/2.0/Extensions/dynamic.js';
import { GLTFFileLoaderMetadata } from '@babylonjs/loaders/glTF/glTFFileLoader.metadata.js';
import { OBJFileLoaderMetadata } from '@babylonjs/loaders/OBJ/objFileLoader.metadata.js';
import { bonesByJoint, type JointName } from '../../shared/joints.ts';
import type { ModelFormat, ModelStats, Playback, TextureInfo, Viewer, ViewMode } from './types.ts';
import { USD_EXTENSIONS, USD_LOADER_NAME } from './usd/usd-metadata.ts';
import { checkGltfFiles, objMaterialLibrary, urlExists } from './companion-files.ts';
import { takeKtx2Failures, useLocalKtx2Decoder } from './ktx2/local-decoder.ts';
import { warmUpGltf } from './warm-up.ts';

let configured = false;

/** Local decoders and the loaders this app opens (each its own chunk, fetched on first use). */
function configure() {
  if (configured) return;
  configured = true;
  // Compiled shader programs are kept until the engine goes (the viewer closes), not released with the last
  // material using them: the next model of the same kind, or the grid made again for it, reuses them. A
  // software renderer (SwiftShader) spends tens of milliseconds compiling a PBR program.
  Effect.PersistentMode = true;
  Tools.ScriptBaseUrl = new URL('babylon/', document.baseURI).href;
  useLocalKtx2Decoder(Tools.ScriptBaseUrl); // KTX2 (KHR_texture_basisu): the app's worker, not Babylon's CDN decoder
  RegisterSceneLoaderPlugin({
    ...GLTFFileLoaderMetadata,
    createPlugin: async (options) => {
      const [{ GLTFFileLoader, RegisterGLTF2Loader }, { RegisterInstancedMesh }] = await Promise.all([
        import('@babylonjs/loaders/glTF/2.0/glTFLoader.pure.js'),
        import('@babylonjs/core/Meshes/instancedMesh.pure.js'),
      ]);
      RegisterInstancedMesh();
      RegisterGLTF2Loader();
      // Animations are not started on load (playback comes with the animation panel).
      return new GLTFFileLoader({ ...options[GLTFFileLoaderMetadata.name], animationStartMode: 0 });
    },
  });
  registerBuiltInGLTFExtensions();
  RegisterSceneLoaderPlugin({
    ...OBJFileLoaderMetadata,
    createPlugin: async (options) => {
      const { OBJFileLoader } = await import('@babylonjs/loaders/OBJ/objFileLoader.pure.js');
      return new OBJFileLoader(options[OBJFileLoaderMetadata.name]);
    },
  });
  RegisterSceneLoaderPlugin({
    ...FBXFileLoaderMetadata,
    createPlugin: async (options) => {
      const { FBXFileLoader } = await import('@babylonjs/loaders/FBX/fbxFileLoader.pure.js');
      // In metres like glTF (an FBX unit is UnitScaleFactor centimetres), so the box reads in metres too.
      return new FBXFileLoader({ unitScale: 'meters', ...options[FBXFileLoaderMetadata.name] });
    },
  });
  // USDZ/USDA: Babylon's OpenUSD loader when its runtime is installed locally, else the built-in reader (usd/).
  RegisterSceneLoaderPlugin({
    name: USD_LOADER_NAME,
    extensions: USD_EXTENSIONS,
    createPlugin: async () => new (await import('./usd/usd-loader.ts')).UsdLoader(),
  });
}

const FORMATS: readonly ModelFormat[] = ['glb', 'gltf', 'obj', 'fbx', 'usdz', 'usda'];

export function formatOf(name: string): ModelFormat | undefined {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return (FORMATS as readonly string[]).includes(ext) ? (ext as ModelFormat) : undefined;
}

export function createViewer(canvas: HTMLCanvasElement): Viewer {
  configure();
  const engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: true, antialias: true }, true);
  if (!engine._gl) throw new Error('WebGL is not available in this window.');
  const scene = new Scene(engine);
  // Prefiltering an environment (so that rough materials blur it) is a few milliseconds on a GPU but several
  // seconds on a software renderer (SwiftShader, llvmpipe: a machine without a usable GPU). There the studio
  // is used as it is, its mipmaps standing in for the blur; a file the user picks is still prefiltered.
  const softwareRenderer = /swiftshader|llvmpipe|softpipe|software/i.test(engine.getGlInfo().renderer);
  scene.clearColor = new Color4(0.16, 0.18, 0.21, 1);
  scene.ambientColor = new Color3(0.3, 0.3, 0.3);

  const camera = new ArcRotateCamera('camera', -Math.PI / 3, Math.PI / 2.6, 4, Vector3.Zero(), scene);
  camera.wheelDeltaPercentage = 0.02;
  camera.panningInertia = 0.8;
  camera.attachControl(true);
  const hemi = new HemisphericLight('sky', new Vector3(0.2, 1, 0.3), scene);
  hemi.groundColor = new Color3(0.25, 0.25, 0.28);
  const sun = new DirectionalLight('sun', new Vector3(-0.5, -1, -0.7), scene);

  // ---- environment (image-based lighting) ----
  // PBR materials (glTF, FBX) take their ambient light and reflections from scene.environmentTexture, and
  // the sun gives them shape; the hemispheric light would light them twice, so while an environment is in
  // use it leaves them out. OBJ's standard materials ignore the environment: both lights stay for them.
  // The studio environment is built with the app (renderer/build.ts) and comes from the page's origin.
  // A texture being read keeps the scene not ready (Babylon's pending data, and the prefiltering), so
  // the render loop runs until it is in use and the first still frame is lit by it.
  const STUDIO_URL = new URL('environment/studio.hdr', document.baseURI).href;
  let environment: BaseTexture | null = null;
  let environmentTry = 0;
  let backgroundShown = false;
  let skybox: Mesh | undefined;
  let envFileCount = 0;

  hemi.intensity = 0.75;
  sun.intensity = 1.6;
  const litByEnvironment = (mesh: AbstractMesh) => !!environment && mesh !== skybox && mesh.material instanceof PBRBaseMaterial;
  function balanceLights() {
    hemi.excludedMeshes = scene.meshes.filter(litByEnvironment);
  }
  scene.onNewMeshAddedObservable.add((mesh) => {
    if (litByEnvironment(mesh)) hemi.excludedMeshes.push(mesh);
  });

  /** Reads an environment; resolves once it is prefiltered and ready (not yet used by the scene). */
  function readEnvironment(url: string, kind: 'hdr' | 'env', name: string, prefilter = true): Promise<BaseTexture> {
    return new Promise((resolve, reject) => {
      let texture: BaseTexture | undefined = undefined;
      const failed = (message?: string, exception?: unknown) => {
        texture?.dispose();
        const why = exception instanceof Error ? exception.message : typeof exception === 'string' && exception ? exception : message || 'the file could not be read';
        reject(new Error(`${name} is not a usable ${kind === 'hdr' ? 'Radiance .hdr' : 'Babylon .env'} environment (${why}).`));
      };
      if (kind === 'hdr') {
        // 128 pixels a cube face is plenty for lighting; prefiltered so that rough materials blur it.
        texture = new HDRCubeTexture(url, scene, 128, false, true, false, prefilter, () => resolve(texture!), failed);
      } else {
        texture = new CubeTexture(url, scene, null, false, null, () => resolve(texture!), failed, undefined, true, '.env', true);
      }
    });
  }

  function useEnvironment(next: BaseTexture | null) {
    const previous = environment;
    environment = next;
    scene.environmentTexture = next;
    if (previous && previous !== next) previous.dispose();
    balanceLights();
    updateSkybox();
  }

  /** The environment as a background: a box around the camera, blurred (PBR skybox, as Babylon's default). */
  function updateSkybox() {
    const material = skybox?.material;
    skybox?.dispose();
    material?.dispose(true, true);
    skybox = undefined;
    if (!backgroundShown || !environment) return;
    const box = CreateBox('environment-background', { size: 1 }, scene);
    const skyMaterial = new PBRMaterial('environment-background', scene);
    const reflection = environment.clone();
    if (reflection) reflection.coordinatesMode = Texture.SKYBOX_MODE;
    skyMaterial.reflectionTexture = reflection;
    skyMaterial.microSurface = 0.7; // blurred: the model stays the subject
    skyMaterial.disableLighting = true;
    skyMaterial.backFaceCulling = false;
    box.material = skyMaterial;
    box.isPickable = false;
    box.infiniteDistance = true;
    box.ignoreCameraMaxZ = true;
    box.renderingGroupId = 0;
    skybox = box;
  }
  // The box follows the camera (infiniteDistance); sized to stay well beyond the model at any scale.
  scene.onBeforeRenderObservable.add(() => {
    if (!skybox) return;
    skybox.scaling.setAll(Math.max(camera.maxZ, camera.radius * 10));
    skybox.isVisible = !scene.forceWireframe;
  });

  // The studio is in use from the start (PBR meshes wait for it rather than flash unlit); if it cannot be
  // read, the lights alone remain.
  {
    const studio = new HDRCubeTexture(STUDIO_URL, scene, 128, false, true, false, !softwareRenderer, undefined, (message) => {
      if (environment !== studio) return;
      console.warn(`The studio environment could not be read (${message ?? 'unknown error'}); lighting with lights only.`);
      useEnvironment(null);
    });
    useEnvironment(studio);
  }

  let container: AssetContainer | undefined;
  let grid: LinesMesh | undefined;
  let box: LinesMesh | undefined;
  let bounds = { min: Vector3.Zero(), max: Vector3.One() };
  let boundsShown = false;
  let generation = 0;

  // ---- animation ----
  let groups: AnimationGroup[] = [];
  let active: AnimationGroup | undefined;
  let playing = false;
  let speed = 1;
  let loop = true;
  let endObserver: Observer<AnimationGroup> | null = null;
  let ended = false; // a clip that does not loop ran to its end (and stopped there)
  const listeners = new Set<(p: Playback | undefined) => void>();
  // ---- skeleton lines ----
  let skeleton: Skeleton | undefined;
  let skeletonShown = false;
  let skeletonLines: LinesMesh | undefined;
  let highlighted: JointName | undefined;

  // ---- view modes ----
  // Normals and the UV checker swap each mesh's material for a shared one (originals kept and put back);
  // the PBR channels set debugMode on the model's PBR materials (0 again for Textured).
  let mode: ViewMode = 'textured';
  const swapped = new Map<AbstractMesh, Material | null>();
  let normalsMaterial: PBRMaterial | undefined;
  let checkerMaterial: StandardMaterial | undefined;
  const DEBUG: Partial<Record<ViewMode, number>> = { albedo: 60, metallic: 62, roughness: 63, normalmap: 5 };

  function normals(): PBRMaterial {
    if (normalsMaterial) return normalsMaterial;
    normalsMaterial = new PBRMaterial('view-normals', scene);
    normalsMaterial.debugMode = 2; // world normals, mapped to 0…1
    normalsMaterial.backFaceCulling = false;
    return normalsMaterial;
  }

  function checker(): StandardMaterial {
    if (checkerMaterial) return checkerMaterial;
    const size = 512;
    const cells = 8;
    const texture = new DynamicTexture('view-uv-checker', { width: size, height: size }, scene, true);
    const ctx = texture.getContext();
    const cell = size / cells;
    for (let y = 0; y < cells; y++)
      for (let x = 0; x < cells; x++) {
        // Hue across U, lightness across V, alternating cells: orientation and stretching both show.
        const hue = Math.round((x / cells) * 300);
        ctx.fillStyle = (x + y) % 2 ? `hsl(${hue}, 70%, ${30 + y * 4}%)` : `hsl(${hue}, 15%, ${85 - y * 3}%)`;
        ctx.fillRect(x * cell, y * cell, cell, cell);
      }
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, cell / 4, cell / 4); // marks UV (0, 0)'s corner of the texture
    texture.update(true);
    checkerMaterial = new StandardMaterial('view-uv', scene);
    checkerMaterial.diffuseTexture = texture;
    checkerMaterial.specularColor = new Color3(0.1, 0.1, 0.1);
    checkerMaterial.backFaceCulling = false;
    return checkerMaterial;
  }

  function pbrMaterials(): PBRBaseMaterial[] {
    return (container?.materials ?? []).filter((m): m is PBRBaseMaterial => m instanceof PBRBaseMaterial);
  }

  /** Puts back the file's own look: its materials, no debug channel, no forced wireframe. */
  function restoreLook() {
    for (const [mesh, material] of swapped) mesh.material = material;
    swapped.clear();
    for (const m of pbrMaterials()) if (m.debugMode !== 0) m.debugMode = 0;
    scene.forceWireframe = false;
  }

  function applyMode() {
    restoreLook();
    if (mode === 'wireframe') scene.forceWireframe = true;
    else if (mode === 'normals' || mode === 'uv') {
      for (const mesh of container?.meshes ?? []) {
        if (mesh.getTotalVertices() === 0) continue;
        if (mode === 'uv' && !mesh.isVerticesDataPresent(VertexBuffer.UVKind)) continue;
        swapped.set(mesh, mesh.material);
        mesh.material = mode === 'uv' ? checker() : normals();
      }
    } else {
      const debug = DEBUG[mode];
      if (debug !== undefined) for (const m of pbrMaterials()) m.debugMode = debug;
    }
    wake();
  }

  // ---- render on demand ----
  let running = false;
  // A model file is being read: what the loader has pending (its textures, its buffers) is not in the view
  // yet, so the view is still once the cleared scene is drawn; frames drawn meanwhile would only compete
  // with the loading for the CPU. The loop wakes again when the model is added.
  let reading = false;
  let idleFrames = 0;
  let frames = 0;
  let pointerDown = false;
  canvas.dataset.rendering = 'idle';
  const interacting = () =>
    pointerDown ||
    camera.inertialAlphaOffset !== 0 ||
    camera.inertialBetaOffset !== 0 ||
    camera.inertialRadiusOffset !== 0 ||
    camera.inertialPanningX !== 0 ||
    camera.inertialPanningY !== 0 ||
    playing;
  const moving = () => interacting() || (!reading && !scene.isReady());
  let shownWaiters: (() => void)[] = [];
  const frame = () => {
    const readyBefore = !reading && scene.isReady();
    const stillBefore = (reading || readyBefore) && !interacting();
    scene.render();
    canvas.dataset.frames = String(++frames);
    canvas.dataset.camera = `${camera.alpha.toFixed(4)} ${camera.beta.toFixed(4)} ${camera.radius.toFixed(4)}`;
    if (skeletonLines) updateSkeletonLines();
    if (playing) notify();
    if (readyBefore && shownWaiters.length > 0) {
      const waiters = shownWaiters;
      shownWaiters = [];
      for (const resolve of waiters) resolve();
    }
    // One frame drawn from a still, ready scene is the picture (the drawing buffer is preserved): then stop.
    // More frames would only compete with whatever comes next (a large model costs SwiftShader ~0.1 s a frame).
    if (!stillBefore || moving()) idleFrames = 0;
    else if (++idleFrames >= 1) {
      engine.stopRenderLoop(frame);
      running = false;
      canvas.dataset.rendering = 'idle';
    }
  };
  const wake = () => {
    idleFrames = 0;
    if (running) return;
    running = true;
    canvas.dataset.rendering = 'on';
    engine.runRenderLoop(frame);
  };
  const onDown = () => ((pointerDown = true), wake());
  const onUp = () => ((pointerDown = false), wake());
  canvas.addEventListener('pointerdown', onDown);
  addEventListener('pointerup', onUp);
  canvas.addEventListener('wheel', wake, { passive: true });
  canvas.addEventListener('keydown', wake);
  const resize = new ResizeObserver(() => {
    engine.resize();
    wake();
  });
  resize.observe(canvas);

  function playbackOf(): Playback | undefined {
    if (!active) return undefined;
    return { clip: groups.indexOf(active), name: active.name, playing, frame: active.isStarted ? active.getCurrentFrame() : ended ? active.to : active.from, from: active.from, to: active.to, speed, loop };
  }
  function notify() {
    const p = playbackOf();
    for (const l of listeners) l(p);
  }

  function selectClip(index: number, play = false) {
    const group = groups[index];
    if (!group) return;
    endObserver?.remove();
    for (const g of groups) g.stop();
    active = group;
    // A clip that does not loop stops on its last frame (play starts it again, a seek restarts it paused).
    ended = false;
    endObserver = group.onAnimationGroupEndObservable.add(() => {
      ended = true;
      playing = false;
      notify();
      wake();
    });
    group.start(loop, speed, group.from, group.to);
    playing = play;
    if (!play) {
      group.pause();
      group.goToFrame(group.from);
    }
    notify();
    wake();
  }

  /** The active clip started (paused unless playing), so that goToFrame has animatables to move. */
  function started(group: AnimationGroup): AnimationGroup {
    if (!group.isStarted) {
      ended = false;
      group.start(loop, speed, group.from, group.to);
      if (!playing) group.pause();
    }
    return group;
  }

  /** Lines from each bone to its parent (world positions of the bones' nodes), redrawn every frame. */
  function bonePairs(s: Skeleton): { lines: Vector3[][]; joints: (JointName | undefined)[] } {
    const byJoint = bonesByJoint(s.bones.map((b) => b.name));
    const jointOf = new Map<string, JointName>();
    for (const [joint, names] of Object.entries(byJoint)) for (const n of names) jointOf.set(n, joint as JointName);
    const mesh = container?.meshes.find((m) => m.skeleton === s);
    const at = (b: (typeof s.bones)[number]) => b.getTransformNode()?.getAbsolutePosition().clone() ?? (mesh ? b.getAbsolutePosition(mesh) : b.getAbsolutePosition());
    const lines: Vector3[][] = [];
    const joints: (JointName | undefined)[] = [];
    for (const bone of s.bones) {
      const parent = bone.getParent();
      if (!parent) continue;
      lines.push([at(parent), at(bone)]);
      joints.push(jointOf.get(bone.name) ?? jointOf.get(parent.name));
    }
    return { lines, joints };
  }

  function makeSkeletonLines() {
    skeletonLines?.dispose();
    skeletonLines = undefined;
    if (!skeleton || !skeletonShown) return;
    const { lines, joints } = bonePairs(skeleton);
    if (lines.length === 0) return;
    const normal = new Color4(0.2, 0.9, 1, 1);
    const hot = new Color4(1, 0.85, 0.1, 1);
    const colors = joints.map((j) => (j && j === highlighted ? [hot, hot] : [normal, normal]));
    skeletonLines = CreateLineSystem('skeleton', { lines, colors, updatable: true }, scene);
    skeletonLines.isPickable = false;
    skeletonLines.renderingGroupId = 1; // over the model
  }

  function updateSkeletonLines() {
    if (!skeleton || !skeletonLines) return;
    CreateLineSystem('skeleton', { lines: bonePairs(skeleton).lines, instance: skeletonLines }, scene);
  }

  /** Takes the model out of the scene; false when there was none (the empty viewer's grid then stays). */
  function clear(): boolean {
    const hadModel = !!container;
    restoreLook();
    endObserver?.remove();
    endObserver = null;
    for (const g of groups) g.stop();
    groups = [];
    active = undefined;
    playing = false;
    skeleton = undefined;
    skeletonLines?.dispose();
    skeletonLines = undefined;
    container?.removeAllFromScene();
    container?.dispose();
    container = undefined;
    if (hadModel) {
      grid?.dispose();
      grid = undefined;
    }
    box?.dispose();
    box = undefined;
    return hadModel;
  }

  function computeBounds(c: AssetContainer) {
    const min = new Vector3(Infinity, Infinity, Infinity);
    const max = new Vector3(-Infinity, -Infinity, -Infinity);
    for (const mesh of c.meshes) {
      if (mesh.getTotalVertices() === 0) continue;
      mesh.computeWorldMatrix(true);
      mesh.refreshBoundingInfo({});
      const b = mesh.getBoundingInfo().boundingBox;
      min.minimizeInPlace(b.minimumWorld);
      max.maximizeInPlace(b.maximumWorld);
    }
    if (!Number.isFinite(min.x)) return { min: new Vector3(-0.5, 0, -0.5), max: new Vector3(0.5, 1, 0.5) };
    return { min, max };
  }

  function frameCamera() {
    const size = bounds.max.subtract(bounds.min);
    const center = bounds.min.add(size.scale(0.5));
    const radius = Math.max(size.length() / 2, 1e-3);
    const distance = radius / Math.sin(Math.min(camera.fov, camera.fov * (engine.getAspectRatio(camera) || 1)) / 2);
    camera.setTarget(center);
    camera.alpha = -Math.PI / 3;
    camera.beta = Math.PI / 2.6;
    camera.radius = distance * 1.05;
    camera.minZ = distance / 500;
    camera.maxZ = distance * 50;
    camera.lowerRadiusLimit = radius / 50;
    camera.upperRadiusLimit = distance * 10;
    camera.panningSensibility = 1000 / radius;
    camera.inertialAlphaOffset = camera.inertialBetaOffset = camera.inertialRadiusOffset = 0;
    camera.inertialPanningX = camera.inertialPanningY = 0;
    wake();
  }

  /** A square grid on the model's floor, with lines at a round spacing. */
  function makeGrid() {
    const size = bounds.max.subtract(bounds.min);
    const extent = Math.max(size.x, size.z, size.y * 0.5) * 1.5;
    const step = 10 ** Math.floor(Math.log10(extent / 5));
    const n = Math.ceil(extent / step);
    const cx = Math.round((bounds.min.x + bounds.max.x) / 2 / step) * step;
    const cz = Math.round((bounds.min.z + bounds.max.z) / 2 / step) * step;
    const y = bounds.min.y;
    const lines: Vector3[][] = [];
    for (let i = -n; i <= n; i++) {
      lines.push([new Vector3(cx + i * step, y, cz - n * step), new Vector3(cx + i * step, y, cz + n * step)]);
      lines.push([new Vector3(cx - n * step, y, cz + i * step), new Vector3(cx + n * step, y, cz + i * step)]);
    }
    grid?.dispose();
    grid = CreateLineSystem('grid', { lines }, scene);
    grid.color = new Color3(0.42, 0.45, 0.5);
    grid.alpha = 0.6;
    grid.isPickable = false;
  }

  function makeBox() {
    const { min: a, max: b } = bounds;
    const c = (x: number, y: number, z: number) => new Vector3(x ? b.x : a.x, y ? b.y : a.y, z ? b.z : a.z);
    box = CreateLineSystem(
      'bounds',
      {
        lines: [
          [c(0, 0, 0), c(1, 0, 0), c(1, 0, 1), c(0, 0, 1), c(0, 0, 0)],
          [c(0, 1, 0), c(1, 1, 0), c(1, 1, 1), c(0, 1, 1), c(0, 1, 0)],
          [c(0, 0, 0), c(0, 1, 0)],
          [c(1, 0, 0), c(1, 1, 0)],
          [c(1, 0, 1), c(1, 1, 1)],
          [c(0, 0, 1), c(0, 1, 1)],
        ],
      },
      scene,
    );
    box.color = new Color3(1, 0.62, 0);
    box.isPickable = false;
    box.setEnabled(boundsShown);
  }

  function statsOf(c: AssetContainer): Omit<ModelStats, 'warnings'> {
    let triangles = 0;
    let vertices = 0;
    let meshes = 0;
    for (const mesh of c.meshes) {
      const v = mesh.getTotalVertices();
      if (v === 0) continue;
      meshes++;
      vertices += v;
      const i = mesh.getTotalIndices();
      triangles += Math.floor((i > 0 ? i : v) / 3);
    }
    const size = bounds.max.subtract(bounds.min);
    return {
      triangles,
      vertices,
      meshes,
      materials: c.materials.length,
      textures: c.textures.length,
      animations: c.animationGroups.length,
      pbr: c.materials.some((m) => m instanceof PBRBaseMaterial),
      size: [size.x, size.y, size.z],
      min: [bounds.min.x, bounds.min.y, bounds.min.z],
      max: [bounds.max.x, bounds.max.y, bounds.max.z],
    };
  }

  // The empty viewer shows a floor grid: something to look at, and its line shader is compiled before the
  // first file comes (the grid and box of each model reuse it).
  makeGrid();
  wake();
  // The glTF loader made ready while the user picks a file (warm-up.ts); `data-loader` says when, for tests.
  void warmUpGltf(scene).then(() => (canvas.dataset.loader = 'ready'));

  return {
    async setEnvironment(choice) {
      const mine = ++environmentTry;
      wake();
      if (choice.kind === 'none') return useEnvironment(null);
      let next: BaseTexture;
      if (choice.kind === 'studio') {
        next = await readEnvironment(STUDIO_URL, 'hdr', 'The studio environment', !softwareRenderer);
      } else {
        const name = choice.file.name;
        const ext = name.toLowerCase().split('.').pop();
        if (ext !== 'hdr' && ext !== 'env') throw new Error(`${name} is not an environment file: choose a .hdr (Radiance) or .env (Babylon) file.`);
        // Read through Babylon's file store (the page's CSP allows no fetch of blob: URLs), under a name
        // of its own so that the model's files and earlier environments never collide with it.
        const key = `environment-${++envFileCount}.${ext}`;
        FilesInputStore.FilesToLoad[key] = choice.file;
        try {
          next = await readEnvironment(`file:${key}`, ext, name);
        } finally {
          delete FilesInputStore.FilesToLoad[key];
        }
      }
      if (mine !== environmentTry) {
        next.dispose();
        return;
      }
      useEnvironment(next);
      wake();
    },
    showEnvironmentBackground(show) {
      if (show === backgroundShown) return; // (the environment panel says so when it gets the viewer)
      backgroundShown = show;
      updateSkybox();
      wake();
    },
    async load(source, options) {
      const mine = ++generation;
      const warnings: string[] = [];
      let skipMaterials = false;
      let input: string | File;
      let format: ModelFormat;
      let rootUrl: string;
      if ('files' in source) {
        const main = source.files.find((f) => formatOf(f.name));
        if (!main) throw new Error('None of these files is a model: choose a .glb, .gltf, .obj, .fbx or .usdz file (with its .mtl, .bin and textures beside it).');
        // Beside files (MTL, textures, .bin) are found by name through Babylon's file store.
        for (const key of Object.keys(FilesInputStore.FilesToLoad)) delete FilesInputStore.FilesToLoad[key];
        for (const f of source.files) FilesInputStore.FilesToLoad[f.name.toLowerCase()] = f;
        input = main;
        format = formatOf(main.name)!;
        rootUrl = 'file:';
        if (format === 'gltf') await checkGltfFiles(main, source.files);
        if (format === 'obj') {
          const library = await objMaterialLibrary(main);
          if (library !== undefined && !source.files.some((f) => f.name.toLowerCase() === library.split(/[\\/]/).pop()!.toLowerCase())) {
            skipMaterials = true;
            warnings.push(`${main.name} names the material library ${library}, which was not picked with it: shown without its materials. Pick the .obj together with its .mtl and textures.`);
          }
        }
      } else {
        input = new URL(source.url, document.baseURI).href;
        format = source.format;
        rootUrl = '';
        if (format === 'obj') {
          const library = await objMaterialLibrary(input);
          if (library !== undefined && !(await urlExists(new URL(library, input).href))) {
            skipMaterials = true;
            warnings.push(`This OBJ names the material library ${library}, which is not beside it: shown without its materials.`);
          }
        }
      }
      reading = true;
      // The old model leaves the view even if the new one fails. With none (the empty viewer) there is
      // nothing to draw until the new one comes: a frame now would only take the CPU from the loading.
      if (clear()) wake();
      const onProgress = options?.onProgress;
      let loaded: AssetContainer;
      takeKtx2Failures(); // (those of an earlier model)
      try {
        loaded = await LoadAssetContainerAsync(input, scene, {
          pluginExtension: `.${format}`,
          ...(rootUrl && { rootUrl }),
          ...(skipMaterials && { pluginOptions: { [OBJFileLoaderMetadata.name]: { skipMaterials: true } } }),
          ...(onProgress && { onProgress: (e: { lengthComputable: boolean; loaded: number; total: number }) => e.lengthComputable && e.total > 0 && onProgress(Math.min(1, e.loaded / e.total)) }),
        });
      } catch (error) {
        // Babylon says only that a texture failed to load; the KTX2 decoder said why.
        const ktx2 = takeKtx2Failures();
        if (ktx2.length > 0) throw new Error(`${error instanceof Error ? error.message : String(error)} (KTX2 texture: ${ktx2[0]})`);
        throw error;
      } finally {
        if (mine === generation) reading = false;
      }
      if (mine !== generation) {
        loaded.dispose();
        throw new Error('superseded');
      }
      container = loaded;
      for (const group of loaded.animationGroups) group.stop();
      loaded.addAllToScene();
      // Now, not when Babylon tells of the new meshes (after the next frame): a PBR material's shader is
      // compiled for the lights it has, so a late exclusion would compile it a second time.
      balanceLights();
      bounds = computeBounds(loaded);
      makeGrid();
      makeBox();
      if (options?.keepCamera) wake();
      else frameCamera();
      groups = loaded.animationGroups;
      skeleton = loaded.skeletons[0];
      if (groups.length > 0) selectClip(0);
      else notify();
      makeSkeletonLines();
      if (mode !== 'textured') applyMode();
      return { ...statsOf(loaded), warnings };
    },
    setMode(next) {
      mode = next;
      applyMode();
    },
    async screenshot() {
      // Ready first (a mode just switched may still compile its shaders), then one frame into the buffer.
      await scene.whenReadyAsync();
      scene.render();
      return new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The view could not be saved as PNG.'))), 'image/png'));
    },
    showBounds(show) {
      boundsShown = show;
      box?.setEnabled(show);
      wake();
    },
    frame: frameCamera,
    shown(timeoutMs = 10_000) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, timeoutMs);
        function done() {
          clearTimeout(timer);
          shownWaiters = shownWaiters.filter((w) => w !== done);
          resolve();
        }
        shownWaiters.push(done);
        wake();
      });
    },
    textures() {
      const list = container?.textures ?? [];
      return new Promise<TextureInfo[]>((resolve) =>
        BaseTexture.WhenAllReady(list, () =>
          resolve(
            list.map((t, i) => {
              const { width, height } = t.getSize();
              const mips = t.noMipmap ? 1 : 4 / 3;
              return { name: t.name || `texture ${i + 1}`, width, height, gpuBytes: Math.round(width * height * 4 * mips * (t.isCube ? 6 : 1)) };
            }),
          ),
        ),
      );
    },
    clips: () => groups.map((g) => g.name),
    selectClip,
    play() {
      if (!active || playing) return;
      playing = true;
      if (active.isStarted) active.play(loop);
      else {
        ended = false;
        active.start(loop, speed, active.from, active.to);
      }
      notify();
      wake();
    },
    pause() {
      if (!active) return;
      active.pause();
      playing = false;
      notify();
      wake();
    },
    seek(frame) {
      if (!active) return;
      started(active).goToFrame(Math.min(active.to, Math.max(active.from, frame)));
      notify();
      wake();
    },
    setSpeed(ratio) {
      speed = Math.min(2, Math.max(0.25, ratio));
      for (const g of groups) g.speedRatio = speed;
      notify();
    },
    setLoop(on) {
      loop = on;
      if (active) active.loopAnimation = on;
      notify();
    },
    playback: playbackOf,
    onPlayback(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    showSkeleton(show) {
      if (show === skeletonShown) return; // (the animation panel says so when it mounts: no frame for nothing)
      skeletonShown = show;
      makeSkeletonLines();
      wake();
    },
    highlightJoint(joint) {
      if (joint === highlighted) return;
      highlighted = joint;
      makeSkeletonLines();
      wake();
    },
    dispose() {
      generation++;
      listeners.clear();
      resize.disconnect();
      canvas.removeEventListener('pointerdown', onDown);
      removeEventListener('pointerup', onUp);
      canvas.removeEventListener('wheel', wake);
      canvas.removeEventListener('keydown', wake);
      engine.stopRenderLoop(frame);
      clear();
      scene.dispose();
      engine.dispose();
    },
  };
}
