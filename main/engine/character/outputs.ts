// The downloadable files of an uploaded character, made from its stored JSON (make-files.ts) when first
// asked for: the FBX (as the service delivers them) and the GLB with the clips named (library labels or prompt texts, each read by motion-words.ts),
// and a static USDZ of its mesh.
import { motionOfText } from '../motion-words.ts';
import type { PolygonMesh } from '../outputs/polygon-mesh.ts';
import { buildPolygonUsdz } from '../usdz.ts';
import { buildCharacterFbx } from './fbx.ts';
import { buildCharacterGlb } from './glb.ts';
import type { CharacterModel } from './model.ts';
import { isRig, rigOf } from './rig.ts';

function parse(json: Buffer): CharacterModel {
  return JSON.parse(json.toString('utf8')) as CharacterModel;
}

export function characterGlb(json: Buffer, clips: string[]): Buffer {
  const model = parse(json);
  const rig = rigOf(model);
  if (!isRig(rig)) throw new Error(`the stored character ${model.source} ${rig.problem}`);
  return buildCharacterGlb(
    model,
    rig,
    clips.flatMap((name) => {
      const spec = motionOfText(name);
      return spec ? [{ name, spec }] : [];
    }),
  );
}

/** The character as FBX with a take per clip (named by the library label or the prompt's text), as the service delivers it. */
export function characterFbx(json: Buffer, clips: string[]): Buffer {
  const model = parse(json);
  const rig = rigOf(model);
  if (!isRig(rig)) throw new Error(`the stored character ${model.source} ${rig.problem}`);
  return buildCharacterFbx(
    model,
    rig,
    clips.flatMap((name) => {
      const spec = motionOfText(name);
      return spec ? [{ name, spec }] : [];
    }),
  );
}

export function characterUsdz(json: Buffer): Buffer {
  const model = parse(json);
  const polygons = Uint32Array.from(model.parts.flatMap((p) => p.indices));
  const count = model.positions.length / 3;
  const mesh: PolygonMesh = {
    positions: Float32Array.from(model.positions),
    normals: Float32Array.from(model.normals),
    uvs: new Float32Array(count * 2),
    polygons,
    sizes: new Uint8Array(polygons.length / 3).fill(3),
    weld: Uint32Array.from({ length: count }, (_, i) => i),
  };
  const main = model.parts.reduce((a, b) => (b.indices.length > a.indices.length ? b : a), model.parts[0]!);
  return buildPolygonUsdz(mesh, { color: main.color });
}
