// A model made game-ready for one target profile (shared/target-profiles.ts), as one GLB: LOD0 within the
// triangle budget, LOD1..n (lod-chain.ts) attached by MSFT_lod (msft-lod.ts) when the target takes LODs, and
// every texture within the profile's largest size in its format (textures.ts). The export writes that GLB as it
// is (glTF targets), reads it to write FBX (Unity's `_LODn` meshes, Unreal's LOD group), or asks for it without
// LODs (Godot makes its own). Runs on a worker thread (thread.ts); the report says what was done, for the plan.
import { Logger, NodeIO, PropertyType } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { prune } from '@gltf-transform/functions';
import type { GameReadyReport } from '../../shared/export-options.ts';
import type { TargetProfile } from '../../shared/target-profiles.ts';
import { buildLodChain } from './lod-chain.ts';
import { attachLods, MsftLod } from './msft-lod.ts';
import { fitTextures, metallicSmoothnessPng } from './textures.ts';

export interface GameReadyOptions {
  /** Whether LOD1..n are made and attached (MSFT_lod); LOD0 is always brought within the budget. */
  lods: boolean;
  /** Also make Unity's metallic/smoothness map of the material's metallic/roughness map (textures.ts). */
  metallicSmoothness?: boolean;
}

/**
 * What was made (shared/export-options.ts gameReadyReportSchema, the bridge's shape): the model's triangles before,
 * LOD0 (within budget) and, when made, LOD1..n (lod-chain.ts LodLevelReport), the textures (textures.ts
 * TextureReport), and what was changed, one line each ("LOD0: 1,000,000 → 10,000 triangles").
 */
export type { GameReadyReport };

export interface GameReady {
  glb: Uint8Array;
  report: GameReadyReport;
  /** Unity's metallic/smoothness PNG, when asked for and the model has a metallic/roughness map. */
  metallicSmoothness?: Uint8Array;
}

/** The IO that reads and writes every extension gltf-transform knows, and MSFT_lod. */
export function gameReadyIo(): NodeIO {
  return new NodeIO().registerExtensions([...ALL_EXTENSIONS, MsftLod]);
}

export async function makeGameReady(
  glb: Uint8Array,
  profile: TargetProfile,
  options: GameReadyOptions,
): Promise<GameReady> {
  const io = gameReadyIo();
  const doc = (await io.readBinary(glb)).setLogger(new Logger(Logger.Verbosity.WARN));
  const ratios = options.lods ? profile.lods.map((l) => l.ratio) : [];
  const chain = await buildLodChain(doc, { triangleBudget: profile.triangleBudget, ratios });
  await doc.transform(prune({ propertyTypes: [PropertyType.ACCESSOR], keepAttributes: true }));
  const textures = await fitTextures(doc, profile.maxTextureSize, profile.textureFormat);
  if (ratios.length > 0)
    attachLods(
      doc,
      chain.meshes,
      profile.lod0ScreenSize,
      profile.lods.map((l) => l.screenSize),
    );
  const fixed: string[] = [];
  const n = (x: number) => x.toLocaleString('en-US');
  if (chain.reduced)
    fixed.push(
      `LOD0: ${n(chain.original)} → ${n(chain.levels[0]!.triangles)} triangles (budget ${n(profile.triangleBudget)})`,
    );
  if (chain.levels.length > 1)
    fixed.push(
      `${chain.levels.length - 1} LODs made (${chain.levels
        .slice(1)
        .map((l) => n(l.triangles))
        .join(', ')} triangles)`,
    );
  for (const t of textures)
    if (t.from[0] !== t.to[0] || t.from[1] !== t.to[1])
      fixed.push(`${t.name}: ${t.from[0]}×${t.from[1]} → ${t.to[0]}×${t.to[1]}`);
  const mr = doc.getRoot().listMaterials()[0]?.getMetallicRoughnessTexture()?.getImage();
  return {
    glb: await io.writeBinary(doc),
    ...(options.metallicSmoothness && mr && { metallicSmoothness: await metallicSmoothnessPng(mr) }),
    report: { profile: profile.name, original: chain.original, levels: chain.levels, textures, fixed },
  };
}

/**
 * One level of a game-ready GLB (made with LODs, MSFT_lod) as a GLB of its own: every scene node shows its LOD
 * `level` mesh (0: LOD0), the LOD nodes and MSFT_lod gone; for a viewer's LOD preview. Levels past the chain's end
 * are refused with a RangeError naming how many there are.
 */
export async function lodLevelGlb(glb: Uint8Array, level: number): Promise<{ glb: Uint8Array; levels: number }> {
  const io = gameReadyIo();
  const doc = (await io.readBinary(glb)).setLogger(new Logger(Logger.Verbosity.WARN));
  const ext = doc
    .getRoot()
    .listExtensionsUsed()
    .find((e): e is MsftLod => e instanceof MsftLod);
  const chains = [...(ext?.lods ?? new Map())];
  const levels = 1 + (chains.length === 0 ? 0 : Math.min(...chains.map(([, lods]) => lods.length)));
  if (!Number.isInteger(level) || level < 0 || level >= levels)
    throw new RangeError(`LOD${level} does not exist: this model has LOD0..LOD${levels - 1}`);
  for (const [node, lods] of chains) {
    if (level > 0) node.setMesh(lods[level - 1]!.getMesh());
    for (const lod of lods) lod.dispose();
  }
  ext?.dispose();
  await doc.transform(prune({ keepAttributes: true }));
  return { glb: await io.writeBinary(doc), levels };
}
