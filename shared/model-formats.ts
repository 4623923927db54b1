// The 3D model formats the viewer opens. Which outputs hold one: modelFormat() in output-kind.ts.
export const MODEL_FORMATS = ['glb', 'gltf', 'obj', 'fbx', 'usdz'] as const;
export type ModelFileFormat = (typeof MODEL_FORMATS)[number];
