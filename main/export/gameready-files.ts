// An export with a target profile (shared/target-profiles.ts): the model made game-ready on a worker thread
// (main/gameready: LOD0 within the budget, LOD1..n, maps fitted) and written the way the engine imports it with no
// click: glTF targets get the GLB with `MSFT_lod`; Unity an FBX of `<Name>_LOD0..n` meshes; Unreal an FBX with a
// `LodGroup` node over them; Godot the base mesh only (Godot 4's importer generates LODs itself: "Generate LODs",
// on by default). The FBX keeps the PBR maps: the base colour and the normal map bound (DiffuseColor, NormalMap),
// and, written beside it, Unity's metallic/smoothness map (metallic in R, smoothness = 1 − roughness in A, also
// bound as ReflectionFactor, which Blender reads as metallic) or, for Unreal, the glTF metallic/roughness map
// (roughness G, metallic B: the G and B of Unreal's ORM packing).
import { createHash } from 'node:crypto';
import type { Document, Material, Mesh, Node } from '@gltf-transform/core';
import type { ExportFormat, ExportTarget } from '../../shared/export-options.ts';
import type { TargetProfile } from '../../shared/target-profiles.ts';
import { writeLodFbx, type FbxLevel, type FbxMap } from '../formats/fbx-lods.ts';
import { gameReadyIo, lodLevelGlb, type GameReadyReport } from '../gameready/gameready.ts';
import { lodsOf } from '../gameready/msft-lod.ts';
import { makeGameReadyOffThread } from '../gameready/thread.ts';
import { conversionRefusal, convertGlb, meshNodes, mergedGroups, worldGroups, type ConvertedFile } from './convert.ts';
import { ExportError, reason } from './errors.ts';
import { TARGETS } from './targets/index.ts';

const CREATOR = 'Asset Studio export';

export interface ProfileStep {
  profile: TargetProfile;
  engine: ExportTarget;
  /** The asset's styled name (`Chair`): the FBX's meshes and maps are named after it. */
  assetName: string;
  format: ExportFormat | undefined;
  /** false: LOD0 within the budget only (an animated model written as one FBX with takes). */
  lods?: false;
}

export interface GameReadyFiles {
  files: ConvertedFile[];
  report: GameReadyReport;
  /** How the LODs are written, for the plan. */
  note: string;
}

/** Whether the engine gets LOD1..n from the export (Godot makes its own): its target module says (targets/). */
export const takesLods = (engine: ExportTarget) => TARGETS[engine].lods !== 'engine-makes';

/** The game-ready files of the GLB `glb` (see the module comment); throws ExportError `bad-format` where FBX cannot hold it. */
export async function gameReadyFiles(glb: Uint8Array, source: string, step: ProfileStep): Promise<GameReadyFiles> {
  const format = step.format ?? 'glb';
  const lods = step.lods !== false && takesLods(step.engine) && format !== 'obj' && step.profile.lods.length > 0;
  const target = TARGETS[step.engine];
  const metallicSmoothness = format === 'fbx' && target.fbxMetallicMap === 'metallic-smoothness';
  const made = await madeReady(glb, step.profile, { lods, metallicSmoothness }).catch((error: unknown) => {
    throw new ExportError('unreadable-glb', {
      file: source,
      why: `cannot be made game-ready for ${step.profile.label} (${reason(error)})`,
      fix: 'Export without a profile, or check the GLB with a glTF validator',
      cause: error,
    });
  });
  const levels = made.report.levels.length;
  if (format === 'glb')
    return {
      files: [{ kind: 'glb', name: 'model.glb', data: made.glb }],
      report: made.report,
      note: lods
        ? `GLB with LOD0..LOD${levels - 1} in MSFT_lod (${step.profile.label})`
        : `${target.lods === 'engine-makes' ? `${target.preset.label} generates the LODs on import (Godot 4's "Generate LODs" import setting); the base mesh is` : 'The base mesh'} within ${step.profile.label}'s budget`,
    };
  if (format === 'obj')
    return {
      files: await convertGlb(made.glb, 'obj', source),
      report: made.report,
      note: `OBJ holds one mesh: LOD0 within ${step.profile.label}'s budget, no LODs`,
    };
  const doc = await gameReadyIo().readBinary(made.glb);
  const refusal = conversionRefusal(doc, 'fbx');
  if (refusal)
    throw new ExportError('bad-format', {
      file: `FBX of ${source}`,
      why: `is not written: ${refusal}`,
      fix: 'Choose GLB, or export without a profile',
    });
  const group = target.lods === 'fbx-lod-group';
  const screenSizes = [step.profile.lod0ScreenSize, ...step.profile.lods.map((l) => l.screenSize)];
  const maps = fbxMaps(doc, step.assetName, made.metallicSmoothness);
  const fbx = writeLodFbx(
    {
      name: step.assetName,
      levels: lodLevels(doc),
      ...(group && lods && { group: { screenSizes: screenSizes.slice(0, levels) } }),
      color: baseColour(doc.getRoot().listMaterials()[0]),
      maps: maps.filter((m) => m.slot !== undefined) as FbxMap[],
    },
    CREATOR,
  );
  return {
    files: [
      { kind: 'fbx', name: 'model.fbx', data: fbx },
      ...maps.map((m) => ({ kind: 'texture' as const, name: m.fileName, data: m.png })),
    ],
    report: made.report,
    note: lods
      ? group
        ? `FBX with a LOD group of ${levels} meshes (${step.assetName}_LOD0..${levels - 1}): Unreal's "Import Mesh LODs" reads it`
        : `FBX of ${levels} meshes named ${step.assetName}_LOD0..${levels - 1}: Unity builds the LOD Group on import`
      : `FBX of the base mesh within ${step.profile.label}'s budget`,
  };
}

/**
 * Game-ready models made lately, by the GLB's hash and the options: the export panel plans again at every change
 * of its options, and the export then writes what the last plan showed. A few are kept.
 */
const made = new Map<string, ReturnType<typeof makeGameReadyOffThread>>();
const KEPT = 4;

function madeReady(
  glb: Uint8Array,
  profile: TargetProfile,
  options: { lods: boolean; metallicSmoothness: boolean },
): ReturnType<typeof makeGameReadyOffThread> {
  const key = `${createHash('sha1').update(glb).digest('hex')}\n${JSON.stringify(profile)}\n${options.lods}\n${options.metallicSmoothness}`;
  let run = made.get(key);
  if (run === undefined) {
    run = makeGameReadyOffThread(glb, profile, options);
    run.catch(() => made.delete(key));
    made.set(key, run);
    while (made.size > KEPT) made.delete(made.keys().next().value!);
  }
  return run;
}

/**
 * One LOD level of the model made ready for `profile` (as a glTF target gets it: LODs made unless the engine is
 * Godot), as a GLB of its own, for the viewer's LOD preview; the chain is made once on the worker and kept (the
 * preview asks for each level in turn). ExportError `bad-input` for a level the chain does not have.
 */
export async function lodPreview(
  glb: Uint8Array,
  source: string,
  profile: TargetProfile,
  level: number,
): Promise<{ glb: Uint8Array; levels: number; report: GameReadyReport }> {
  const made = await madeReady(glb, profile, { lods: profile.lods.length > 0, metallicSmoothness: false }).catch(
    (error: unknown) => {
      throw new ExportError('unreadable-glb', {
        file: source,
        why: `cannot be made game-ready for ${profile.label} (${reason(error)})`,
        fix: 'Check the GLB with a glTF validator',
        cause: error,
      });
    },
  );
  try {
    return { ...(await lodLevelGlb(made.glb, level)), report: made.report };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new ExportError('bad-input', { file: 'level', why: error.message, fix: 'Ask for one of those levels' });
  }
}

/** LOD0..n of the scene's meshes in world space, each level one FBX geometry. */
function lodLevels(doc: Document): FbxLevel[] {
  const nodes = meshNodes(doc).map(({ node }) => ({ node, mesh: node.getMesh()!, lods: lodsOf(doc, node) }));
  const count = nodes.length === 0 ? 1 : 1 + Math.min(...nodes.map((n) => n.lods.length));
  const levels: FbxLevel[] = [];
  for (let level = 0; level < count; level++) {
    for (const n of nodes) n.node.setMesh(level === 0 ? n.mesh : meshOf(n.lods[level - 1]!, n.mesh));
    levels.push(mergedGroups(worldGroups(doc).groups));
  }
  for (const n of nodes) n.node.setMesh(n.mesh);
  return levels;
}

const meshOf = (lod: Node, fallback: Mesh): Mesh => lod.getMesh() ?? fallback;

function baseColour(m: Material | undefined): [number, number, number] {
  const [r, g, b] = m?.getBaseColorFactor() ?? [0.8, 0.8, 0.8, 1];
  return [r, g, b];
}

/** The maps written beside the FBX; those with a slot are bound in it too. */
function fbxMaps(
  doc: Document,
  asset: string,
  metallicSmoothness: Uint8Array | undefined,
): (Omit<FbxMap, 'slot'> & { slot?: FbxMap['slot'] })[] {
  const material = doc.getRoot().listMaterials()[0];
  if (!material) return [];
  const out: (Omit<FbxMap, 'slot'> & { slot?: FbxMap['slot'] })[] = [];
  const png = (t: ReturnType<Material['getBaseColorTexture']>) =>
    t?.getMimeType() === 'image/png' ? (t.getImage() ?? undefined) : undefined;
  const base = png(material.getBaseColorTexture());
  if (base) out.push({ slot: 'DiffuseColor', png: base, fileName: `${asset}_BaseColor.png` });
  const normal = png(material.getNormalTexture());
  if (normal) out.push({ slot: 'NormalMap', png: normal, fileName: `${asset}_Normal.png` });
  const mr = png(material.getMetallicRoughnessTexture());
  if (metallicSmoothness)
    out.push({ slot: 'ReflectionFactor', png: metallicSmoothness, fileName: `${asset}_MetallicSmoothness.png` });
  else if (mr) out.push({ png: mr, fileName: `${asset}_RoughnessMetallic.png` });
  return out;
}
