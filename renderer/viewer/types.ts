// Shared by the viewer's UI (main chunk) and its Babylon scene (lazy chunk): no Babylon imports here.
import { modelFormatOfKind } from '../../shared/model-formats.ts';

export type ModelFormat = 'glb' | 'gltf' | 'obj' | 'fbx' | 'usdz' | 'usda';

/** A model to show: a URL the host serves (e.g. a cache.outputs URL), or local files (a model and the files beside it). */
export type ModelSource = UrlSource | { files: File[] };
/** `size`: the file's size in bytes when the caller knows it (a cached output's). */
export type UrlSource = { url: string; format: ModelFormat; name: string; size?: number | null };

/** Textured (the file's own look), wireframe, surface normals as colours, a UV checker, and the PBR channels. */
export type ViewMode = 'textured' | 'wireframe' | 'normals' | 'uv' | 'albedo' | 'metallic' | 'roughness' | 'normalmap';

/** The view modes that show a channel of PBR materials (only offered when the model has one). */
export const PBR_MODES: readonly ViewMode[] = ['albedo', 'metallic', 'roughness', 'normalmap'];

/** A texture of the model: its resolution and what it takes in GPU memory (RGBA8, with mipmaps when it has them). */
export interface TextureInfo {
  name: string;
  width: number;
  height: number;
  gpuBytes: number;
}

export interface ModelStats {
  triangles: number;
  vertices: number;
  meshes: number;
  materials: number;
  textures: number;
  animations: number;
  /** Whether any material is PBR (the channel views need one). */
  pbr: boolean;
  /** Bounding box size, min and max (x, y, z) in scene units: metres for glTF. */
  size: [number, number, number];
  min: [number, number, number];
  max: [number, number, number];
  /** What is shown differs from the file and why (e.g. an OBJ's material library is missing). */
  warnings: string[];
}

/** The format of a cached output kind (`glb`, `preview_glb`, `retopo_obj_1`, `fbx`, `usdz`…), if it is a model. */
export function formatOfKind(kind: string): ModelFormat | undefined {
  return modelFormatOfKind(kind);
}
