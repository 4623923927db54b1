// The light on the model: two lights (a hemispheric sky and a sun) and an environment (image-based lighting).
// PBR materials (glTF, FBX) take their ambient light and reflections from scene.environmentTexture, and the
// sun gives them shape; the hemispheric light would light them twice, so while an environment is in use it
// leaves them out. OBJ's standard materials ignore the environment: both lights stay for them.
//
// The studio environment is built with the app (renderer/build.ts, renderer/environment/) and comes from the
// page's origin. A texture being read keeps the scene not ready (Babylon's pending data, and the
// prefiltering), so the render loop runs until it is in use and the first still frame is lit by it.
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight.js';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight.js';
import { PBRBaseMaterial } from '@babylonjs/core/Materials/PBR/pbrBaseMaterial.js';
import { PBRMaterial } from '@babylonjs/core/Materials/PBR/pbrMaterial.js';
import type { BaseTexture } from '@babylonjs/core/Materials/Textures/baseTexture.js';
import { CubeTexture } from '@babylonjs/core/Materials/Textures/cubeTexture.js';
import { HDRCubeTexture } from '@babylonjs/core/Materials/Textures/hdrCubeTexture.js';
import { Texture } from '@babylonjs/core/Materials/Textures/texture.js';
import { Color3 } from '@babylonjs/core/Maths/math.color.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { FilesInputStore } from '@babylonjs/core/Misc/filesInputStore.js';
import type { EnvironmentChoice } from '../types.ts';
import type { ViewerContext } from './context.ts';

export interface Environment {
  /** See Viewer.setEnvironment: resolves once in use, rejects with the reason (the previous one stays). */
  set(choice: EnvironmentChoice): Promise<void>;
  showBackground(show: boolean): void;
  /**
   * Takes the PBR meshes out of the hemispheric light. Called as soon as a model is added, not when Babylon
   * tells of its new meshes (after the next frame): a PBR material's shader is compiled for the lights it
   * has, so a late exclusion would compile it a second time.
   */
  balanceLights(): void;
}

/** Makes the lights and starts with the studio environment (PBR meshes wait for it rather than flash unlit). */
export function createEnvironment({ engine, scene, camera, wake }: ViewerContext): Environment {
  // Prefiltering an environment (so that rough materials blur it) is a few milliseconds on a GPU but several
  // seconds on a software renderer (SwiftShader, llvmpipe: a machine without a usable GPU). There the studio
  // is used as it is, its mipmaps standing in for the blur; a file the user picks is still prefiltered.
  const softwareRenderer = /swiftshader|llvmpipe|softpipe|software/i.test(engine.getGlInfo().renderer);
  const studioUrl = new URL('environment/studio.hdr', document.baseURI).href;
  const hemi = new HemisphericLight('sky', new Vector3(0.2, 1, 0.3), scene);
  hemi.groundColor = new Color3(0.25, 0.25, 0.28);
  const sun = new DirectionalLight('sun', new Vector3(-0.5, -1, -0.7), scene);
  hemi.intensity = 0.75;
  sun.intensity = 1.6;

  let environment: BaseTexture | null = null;
  let environmentTry = 0;
  let backgroundShown = false;
  let skybox: Mesh | undefined;
  let envFileCount = 0;

  const litByEnvironment = (mesh: AbstractMesh) =>
    !!environment && mesh !== skybox && mesh.material instanceof PBRBaseMaterial;
  function balanceLights() {
    hemi.excludedMeshes = scene.meshes.filter(litByEnvironment);
  }
  scene.onNewMeshAddedObservable.add((mesh) => {
    if (litByEnvironment(mesh)) hemi.excludedMeshes.push(mesh);
  });

  /** Reads an environment; resolves once it is prefiltered and ready (not yet used by the scene). */
  function read(url: string, kind: 'hdr' | 'env', name: string, prefilter = true): Promise<BaseTexture> {
    return new Promise((resolve, reject) => {
      let texture: BaseTexture | undefined;
      const failed = (message?: string, exception?: unknown) => {
        texture?.dispose();
        const why =
          exception instanceof Error
            ? exception.message
            : typeof exception === 'string' && exception
              ? exception
              : message || 'the file could not be read';
        reject(
          new Error(
            `${name} is not a usable ${kind === 'hdr' ? 'Radiance .hdr' : 'Babylon .env'} environment (${why}).`,
          ),
        );
      };
      if (kind === 'hdr') {
        // 128 pixels a cube face is plenty for lighting; prefiltered so that rough materials blur it.
        texture = new HDRCubeTexture(url, scene, 128, false, true, false, prefilter, () => resolve(texture!), failed);
      } else {
        texture = new CubeTexture(
          url,
          scene,
          null,
          false,
          null,
          () => resolve(texture!),
          failed,
          undefined,
          true,
          '.env',
          true,
        );
      }
    });
  }

  function use(next: BaseTexture | null) {
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

  // The studio is in use from the start; if it cannot be read, the lights alone remain.
  const studio = new HDRCubeTexture(
    studioUrl,
    scene,
    128,
    false,
    true,
    false,
    !softwareRenderer,
    undefined,
    (message) => {
      if (environment !== studio) return;
      console.warn(
        `The studio environment could not be read (${message ?? 'unknown error'}); lighting with lights only.`,
      );
      use(null);
    },
  );
  use(studio);

  return {
    async set(choice) {
      const mine = ++environmentTry;
      wake();
      if (choice.kind === 'none') return use(null);
      let next: BaseTexture;
      if (choice.kind === 'studio') {
        next = await read(studioUrl, 'hdr', 'The studio environment', !softwareRenderer);
      } else {
        const name = choice.file.name;
        const ext = name.toLowerCase().split('.').pop();
        if (ext !== 'hdr' && ext !== 'env')
          throw new Error(`${name} is not an environment file: choose a .hdr (Radiance) or .env (Babylon) file.`);
        // Read through Babylon's file store (the page's CSP allows no fetch of blob: URLs), under a name
        // of its own so that the model's files and earlier environments never collide with it.
        const key = `environment-${++envFileCount}.${ext}`;
        FilesInputStore.FilesToLoad[key] = choice.file;
        try {
          next = await read(`file:${key}`, ext, name);
        } finally {
          delete FilesInputStore.FilesToLoad[key];
        }
      }
      if (mine !== environmentTry) {
        next.dispose();
        return;
      }
      use(next);
      wake();
    },
    showBackground(show) {
      if (show === backgroundShown) return; // (the environment panel says so when it gets the viewer)
      backgroundShown = show;
      updateSkybox();
      wake();
    },
    balanceLights,
  };
}
