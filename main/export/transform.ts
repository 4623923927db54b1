// Optional transforms of a GLB: up-axis conversion, uniform scale (a factor or a target size), pivot.
// They are baked in memory with glTF Transform (bake.ts): vertices, normals and tangents, skins' inverse
// bind matrices, node transforms and animation keys are mapped, so no node is added and the roots keep a
// unit scale (engines' prefabs, Unity's especially, want that); the skinned mesh moves with its joints.
import { NodeIO, type Document, type vec3, type vec4 } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { transformsSchema, type Transforms } from '../../shared/export-options.ts';
import { bakeSimilarity } from './bake.ts';
import { box, sceneBounds, type Bounds, type Vec3 } from './bounds.ts';
import { ExportError, reason } from './errors.ts';

/** What can be asked for (shared/export-options.ts): up axis, scale (a factor or a size in metres), pivot. */
export { transformsSchema, type Transforms };

const HALF = Math.SQRT1_2;
/** +90° about X maps (x, y, z) to (x, -z, y): Y up becomes Z up, glTF's +Z front becomes -Y. */
const ROTATIONS: Record<NonNullable<Transforms['upAxis']>, Rotation> = {
  'y-to-z': { q: [HALF, 0, 0, HALF], up: 2, apply: ([x, y, z]) => [x, -z, y], back: ([x, y, z]) => [x, z, -y] },
  'z-to-y': { q: [-HALF, 0, 0, HALF], up: 1, apply: ([x, y, z]) => [x, z, -y], back: ([x, y, z]) => [x, -z, y] },
};
const NO_ROTATION: Rotation = { q: [0, 0, 0, 1], up: 1, apply: (p) => p, back: (p) => p };

interface Rotation {
  q: vec4;
  up: 1 | 2;
  apply: (p: Vec3) => Vec3;
  back: (p: Vec3) => Vec3;
}

export function hasTransforms(t: Transforms | undefined): t is Transforms {
  return t !== undefined && (t.upAxis !== undefined || t.scale !== undefined || t.pivot !== undefined);
}

/** Applies the transforms; `bbox` is the default scene's box after them, in metres. `file` names the GLB in errors. */
export async function transformGlb(
  glb: Uint8Array,
  t: Transforms,
  file: string,
): Promise<{ glb: Uint8Array; bbox?: Bounds }> {
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
  let doc: Document;
  try {
    doc = await io.readBinary(glb);
  } catch (error) {
    throw new ExportError('unreadable-glb', {
      file,
      why: `cannot be read for the transforms (${reason(error)})`,
      fix: 'Export it without transforms, or check it with a glTF validator',
      cause: error,
    });
  }
  const scenes = doc.getRoot().listScenes();
  const main = doc.getRoot().getDefaultScene() ?? scenes[0];
  const source = main && sceneBounds(main);
  const needsBox = t.pivot !== undefined || (t.scale !== undefined && !('factor' in t.scale));
  if (!source && needsBox) {
    throw new ExportError('unsupported-glb', {
      file,
      why: 'has no mesh geometry to measure',
      fix: 'Export it without a target size or pivot',
    });
  }
  const rotation = t.upAxis ? ROTATIONS[t.upAxis] : NO_ROTATION;
  const rotated = source && rotateBox(source, rotation.apply);
  const s = scaleFactor(t.scale, rotated, rotation.up, file);
  const offset: Vec3 = [0, 0, 0];
  if (rotated && t.pivot) {
    for (let k = 0; k < 3; k++) {
      const anchor =
        t.pivot === 'bottom-center' && k === rotation.up ? rotated.min[k]! : (rotated.min[k]! + rotated.max[k]!) / 2;
      offset[k] = -s * anchor;
    }
  }
  bakeSimilarity(doc, {
    scale: s,
    rotation: rotation.q,
    rotate: rotation.apply as (v: vec3) => vec3,
    unrotate: rotation.back as (v: vec3) => vec3,
    translation: offset,
  });
  const place = (p: Vec3) => p.map((v, k) => s * v + offset[k]!) as Vec3;
  const bbox = rotated && box(place(rotated.min), place(rotated.max));
  return { glb: await io.writeBinary(doc), ...(bbox && { bbox }) };
}

function scaleFactor(scale: Transforms['scale'], rotated: Bounds | undefined, up: 1 | 2, file: string): number {
  if (!scale) return 1;
  if ('factor' in scale) return scale.factor;
  const [target, current] =
    'largest' in scale ? [scale.largest, Math.max(...rotated!.size)] : [scale.height, rotated!.size[up]];
  if (!(current > 0)) {
    const why = 'is flat along the measured axis, so it cannot be fitted to a size';
    throw new ExportError('unsupported-glb', { file, why, fix: 'Use a scale factor instead' });
  }
  return target / current;
}

/** The box of the rotated box: exact, since the rotations are quarter turns. */
function rotateBox(b: Bounds, apply: (p: Vec3) => Vec3): Bounds {
  const a = apply(b.min);
  const c = apply(b.max);
  return box(
    [0, 1, 2].map((k) => Math.min(a[k]!, c[k]!)) as Vec3,
    [0, 1, 2].map((k) => Math.max(a[k]!, c[k]!)) as Vec3,
  );
}
