// The 3D model formats the viewer opens, and which cached output kinds hold one: `glb`, `preview_glb`,
// `retopo_obj_1`, `fbx`, `prompt:<id>:usdz`… (kinds are named by main/cache/outputs.ts).
export const MODEL_FORMATS = ['glb', 'gltf', 'obj', 'fbx', 'usdz'] as const;
export type ModelFileFormat = (typeof MODEL_FORMATS)[number];

/**
 * The animated GLBs of a mesh-animation session: `animation` (the session's), `library:<id>` and
 * `prompt:<id>` (a text prompt's result; its USDZ is `prompt:<id>:usdz`). Their kinds name no format.
 */
export const ANIMATION_KIND = /^(?:animation|library:[^:]+|prompt:[^:]+)$/;

/** The model format of a cached output kind, if it holds a model. */
export function modelFormatOfKind(kind: string): ModelFileFormat | undefined {
  const m = /(?:^|[_:])(glb|gltf|obj|fbx|usdz)(?:_\d+)?$/.exec(kind);
  return m ? (m[1] as ModelFileFormat) : undefined;
}
