// The meshes of an image-to-3D session, as its fields name them: `mesh_url_glb`, `preview_mesh_url_obj`, …
import type { MeshFileFormat, MeshStage } from '../output-kind.ts';
import { str, type Fields } from './fields.ts';
import type { OutputCandidate } from './types.ts';

const FIELD_PREFIX: Readonly<Record<MeshStage, string>> = { final: '', preview: 'preview_', polished: 'polished_' };

/** The mesh of one stage in every format (`mesh_url` is the GLB when `mesh_url_glb` is empty). */
export function meshFiles(r: Fields, stage: MeshStage): OutputCandidate[] {
  const prefix = FIELD_PREFIX[stage];
  const file = (format: MeshFileFormat, field: string): OutputCandidate => ({
    kind: { type: 'mesh', stage, format },
    url: str(r[`${prefix}${field}`]),
  });
  return [
    file('glb', 'mesh_url_glb'),
    file('glb', 'mesh_url'),
    file('obj', 'mesh_url_obj'),
    file('zip', 'mesh_url_zip'),
    file('fbx', 'mesh_url_fbx'),
    file('usdz', 'mesh_url_usdz'),
  ];
}
