// Shared by the viewer's UI (main chunk) and its Babylon scene (lazy chunk): no Babylon imports here.

export type ModelFormat = 'glb' | 'gltf' | 'obj' | 'fbx';

/** A model to show: a URL the host serves (e.g. a cache.outputs URL), or local files (a model and the files beside it). */
export type ModelSource = UrlSource | { files: File[] };
export type UrlSource = { url: string; format: ModelFormat; name: string };

export type ViewMode = 'textured' | 'wireframe';

export interface ModelStats {
  triangles: number;
  vertices: number;
  meshes: number;
  materials: number;
  textures: number;
  animations: number;
  /** Bounding box size, min and max (x, y, z) in scene units: metres for glTF. */
  size: [number, number, number];
  min: [number, number, number];
  max: [number, number, number];
}

/** The format of a cached output kind (`glb`, `preview_glb`, `retopo_obj_1`, `fbx`…), if it is a model. */
export function formatOfKind(kind: string): ModelFormat | undefined {
  const m = /(?:^|_)(glb|gltf|obj|fbx)(?:_\d+)?$/.exec(kind);
  return m ? (m[1] as ModelFormat) : undefined;
}
