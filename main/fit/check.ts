// The engine-fit check: a model's facts (model-facts.ts) judged against a target profile
// (shared/target-profiles.ts). A pure function: every finding has a stable code, a severity, a plain message
// and the fix the export applies for it (shared/fit-check.ts), or null where only the user can mend it.
import type { Finding, Fix } from '../../shared/fit-check.ts';
import type { TargetProfile } from '../../shared/target-profiles.ts';
import type { ModelFacts } from './model-facts.ts';

export interface FitContext {
  /** The model's real height in metres, as the user said (`job.setSize`, `check --height`); undefined: not said. */
  heightM?: number | undefined;
}

/** The generator's default size: the longest side of an image-to-3D model is 1 m. */
const DEFAULT_SIDE_M = 1;

/** Characters and lengths each engine's importer accepts in a name (what it renames or refuses otherwise). */
const NAME_RULES: Readonly<Record<TargetProfile['engine'], { bad: RegExp; max: number; says: string }>> = {
  // Unity: asset and object names end up in file names: no / \ : * ? " < > |.
  unity: { bad: /[/\\:*?"<>|]/, max: 64, says: 'no / \\ : * ? " < > |' },
  // Unreal: asset names take letters, digits and _ only (spaces and punctuation are replaced on import).
  unreal: { bad: /[^A-Za-z0-9_]/, max: 64, says: 'letters, digits and _ only' },
  // Godot: node names cannot hold . : @ / " %.
  godot: { bad: /[.:@/"%]/, max: 64, says: 'no . : @ / " %' },
  folder: { bad: /[/\\\0]/, max: 128, says: 'no / \\' },
};

const fix = (kind: string, label: string, extra: Record<string, unknown> = {}): Fix => ({ kind, label, ...extra });
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

export function checkFit(facts: ModelFacts, profile: TargetProfile, context: FitContext = {}): Finding[] {
  if (facts.triangles === 0)
    return [
      {
        code: 'no-triangles',
        severity: 'error',
        message: 'The model has no triangles: there is nothing an engine can show.',
        fix: null,
      },
    ];
  return [
    ...triangles(facts, profile),
    ...textures(facts, profile),
    ...texelDensity(facts, profile),
    ...size(facts, context),
    ...pivot(facts),
    ...orientation(facts, profile),
    ...attributes(facts),
    ...geometry(facts),
    ...names(facts, profile),
    ...bones(facts, profile),
  ];
}

function triangles(f: ModelFacts, p: TargetProfile): Finding[] {
  const out: Finding[] = [];
  if (f.triangles > p.triangleBudget)
    out.push({
      code: 'triangles-over-budget',
      severity: 'error',
      message: `${plural(f.triangles, 'triangle')}: over the ${p.label} budget of ${p.triangleBudget.toLocaleString('en-US')}.`,
      fix: fix('reduce', `Reduce to ${p.triangleBudget.toLocaleString('en-US')} triangles`, {
        triangles: p.triangleBudget,
      }),
    });
  // Godot 4 makes its own LODs at import (its importer's Generate LODs): the export writes the base mesh.
  if (p.lods.length > 0 && !f.hasLods && p.engine === 'godot')
    out.push({
      code: 'no-lods',
      severity: 'info',
      message:
        'No LODs in the file: Godot 4 makes them itself when it imports the model (Generate LODs, on by default).',
      fix: null,
    });
  else if (p.lods.length > 0 && !f.hasLods)
    out.push({
      code: 'no-lods',
      severity: 'info',
      message: `No LODs: ${p.label} draws distant models with ${p.lods.length} lighter level${p.lods.length === 1 ? '' : 's'}.`,
      fix: fix('lods', 'Make LODs', { levels: p.lods.length }),
    });
  return out;
}

function textures(f: ModelFacts, p: TargetProfile): Finding[] {
  const out: Finding[] = [];
  const big = f.textures.filter((t) => Math.max(t.width, t.height) > p.maxTextureSize);
  if (big.length > 0)
    out.push({
      code: 'texture-too-large',
      severity: 'error',
      message: `${big.map((t) => `${t.name} is ${t.width}×${t.height}`).join('; ')}: larger than ${p.maxTextureSize} px, the largest for ${p.label}.`,
      fix: fix('resize-textures', `Resize to ${p.maxTextureSize}`, { size: p.maxTextureSize }),
    });
  const odd = f.textures.filter((t) => !isPowerOfTwo(t.width) || !isPowerOfTwo(t.height));
  if (odd.length > 0)
    out.push({
      code: 'texture-not-power-of-two',
      severity: 'warning',
      message: `${odd.map((t) => `${t.name} (${t.width}×${t.height})`).join('; ')}: not a power of two, so no mipmaps or compression on some GPUs.`,
      fix: fix('resize-textures', `Resize to ${p.maxTextureSize}`, { size: p.maxTextureSize }),
    });
  return out;
}

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

/** Pixels per metre of surface: √(texture pixels over the UV area ÷ world area), over the textured triangles. */
export function texelDensityOf(f: Pick<ModelFacts, 'texelPixels' | 'texelWorldArea'>, scale = 1): number | null {
  if (f.texelPixels <= 0 || f.texelWorldArea <= 0) return null;
  return Math.sqrt(f.texelPixels / (f.texelWorldArea * scale * scale));
}

function texelDensity(f: ModelFacts, p: TargetProfile): Finding[] {
  const density = texelDensityOf(f);
  if (density === null) return [];
  const shown = `${Math.round(density)} px/m (target ${p.texelDensity})`;
  if (density < p.texelDensity / 2)
    return [
      {
        code: 'texel-density-low',
        severity: 'warning',
        message: `Texel density ${shown}: the textures will look blurry next to other ${p.label} assets.`,
        fix: null,
      },
    ];
  if (density > p.texelDensity * 2) {
    // The texture size that gives about the target density (it scales with the side of the texture).
    const side = Math.max(...f.textures.map((t) => Math.max(t.width, t.height)), 1);
    const target = nearestSize((side * p.texelDensity) / density);
    return [
      {
        code: 'texel-density-high',
        severity: 'info',
        message: `Texel density ${shown}: more pixels than ${p.label} needs at this size.`,
        fix: target < side ? fix('resize-textures', `Resize to ${target}`, { size: target }) : null,
      },
    ];
  }
  return [];
}

function nearestSize(n: number): number {
  return 2 ** Math.max(8, Math.round(Math.log2(Math.max(n, 1))));
}

function size(f: ModelFacts, c: FitContext): Finding[] {
  const dims = [0, 1, 2].map((k) => f.max[k]! - f.min[k]!);
  const height = dims[1]!;
  const longest = Math.max(...dims);
  if (c.heightM !== undefined) {
    if (Math.abs(height - c.heightM) <= c.heightM * 0.01) return [];
    return [
      {
        code: 'size-differs',
        severity: 'warning',
        message: `It is ${round(height, 3)} m tall; you said it is ${c.heightM} m.`,
        fix: fix('scale', `Set height ${c.heightM} m`, { heightM: c.heightM }),
      },
    ];
  }
  if (Math.abs(longest - DEFAULT_SIDE_M) <= 0.005)
    return [
      {
        code: 'size-unknown',
        severity: 'warning',
        message:
          'Its longest side is exactly 1 m, the generator’s default size, not its real one: how tall is it? (Tell the check its height.)',
        fix: null,
      },
    ];
  if (longest > 200 || longest < 0.005)
    return [
      {
        code: 'size-unlikely',
        severity: 'warning',
        message: `Its longest side is ${round(longest, 3)} m: made in other units? Tell the check its real height.`,
        fix: null,
      },
    ];
  return [];
}

function pivot(f: ModelFacts): Finding[] {
  const dims = [0, 1, 2].map((k) => f.max[k]! - f.min[k]!);
  const tolerance = Math.max(...dims) * 0.02;
  const centre = [0, 1, 2].map((k) => (f.min[k]! + f.max[k]!) / 2);
  const centredXZ = Math.abs(centre[0]!) <= tolerance && Math.abs(centre[2]!) <= tolerance;
  if (centredXZ && Math.abs(f.min[1]!) <= tolerance) return [];
  if (centredXZ && Math.abs(centre[1]!) <= tolerance)
    return [
      {
        code: 'pivot-centre',
        severity: 'warning',
        message: 'Its origin is at the centre of its box: placed on a floor, half of it sinks below.',
        fix: fix('pivot', 'Move the pivot to the bottom centre', { pivot: 'bottom-center' }),
      },
    ];
  return [
    {
      code: 'pivot-off',
      severity: 'warning',
      message: 'Its origin is neither at its bottom centre nor at its centre.',
      fix: fix('pivot', 'Move the pivot to the bottom centre', { pivot: 'bottom-center' }),
    },
  ];
}

function orientation(f: ModelFacts, p: TargetProfile): Finding[] {
  const out: Finding[] = [];
  const [w, h, d] = [0, 1, 2].map((k) => f.max[k]! - f.min[k]!) as [number, number, number];
  // A model made Z up lies on its back in a Y-up file: flat in Y, long in Z.
  if (h < 0.35 * d && d > 1.5 * w)
    out.push({
      code: 'up-axis-suspect',
      severity: 'warning',
      message: 'It is flat along Y and long along Z: it may have been made Z up and lie on its back.',
      fix: fix('up-axis', 'Turn Z up to Y up', { upAxis: 'z-to-y' }),
    });
  if (p.upAxis === 'z')
    out.push({
      code: 'up-axis-engine',
      severity: 'info',
      message: `${p.label} is Z up: its importer turns glTF’s Y up (nothing to do).`,
      fix: null,
    });
  // Facing: glTF's forward is +Z. Where the surface gathers off the box's centre in X and Z hints at the front.
  const cx = f.surfaceCentre[0] - (f.min[0] + f.max[0]) / 2;
  const cz = f.surfaceCentre[2] - (f.min[2] + f.max[2]) / 2;
  const side = Math.max(w, d, 1e-9);
  if (Math.max(Math.abs(cx), Math.abs(cz)) > 0.08 * side) {
    const facing = Math.abs(cz) >= Math.abs(cx) ? (cz > 0 ? '+Z' : '-Z') : cx > 0 ? '+X' : '-X';
    if (facing !== '+Z')
      out.push({
        code: 'facing-guess',
        severity: 'info',
        message: `It may face ${facing} (a guess from where its surface gathers); engines take +Z as glTF’s forward. Check it in the viewer.`,
        fix: null,
      });
  }
  return out;
}

function attributes(f: ModelFacts): Finding[] {
  const out: Finding[] = [];
  if (f.texturedWithoutUvs > 0)
    out.push({
      code: 'uvs-missing',
      severity: 'error',
      message: `${plural(f.texturedWithoutUvs, 'textured part')} without UVs: its textures cannot be placed.`,
      fix: null,
    });
  else if (f.withoutUvs > 0)
    out.push({
      code: 'uvs-missing',
      severity: 'warning',
      message: `${plural(f.withoutUvs, 'part')} without UVs: no texture or lightmap can be laid on them.`,
      fix: null,
    });
  if (f.withoutNormals > 0)
    out.push({
      code: 'normals-missing',
      severity: 'warning',
      message: `${plural(f.withoutNormals, 'part')} without normals: engines compute flat ones on import, so it looks faceted.`,
      fix: null,
    });
  return out;
}

function geometry(f: ModelFacts): Finding[] {
  const out: Finding[] = [];
  if (f.degenerate > 0)
    out.push({
      code: 'degenerate-triangles',
      severity: 'warning',
      message: `${plural(f.degenerate, 'triangle')} with no area: engines drop them, and they can break lightmap UVs.`,
      fix: null,
    });
  if (f.nonManifoldEdges > 0)
    out.push({
      code: 'non-manifold',
      severity: 'warning',
      message: `${plural(f.nonManifoldEdges, 'edge')} shared by more than two triangles: LODs and physics colliders made from it may tear.`,
      fix: null,
    });
  return out;
}

function names(f: ModelFacts, p: TargetProfile): Finding[] {
  const rule = NAME_RULES[p.engine];
  const bad = f.names.filter((n) => rule.bad.test(n) || n.length > rule.max);
  if (bad.length === 0) return [];
  const shown = bad.slice(0, 3).map((n) => `"${n.length > 40 ? `${n.slice(0, 40)}…` : n}"`);
  return [
    {
      code: 'names-rejected',
      severity: 'warning',
      message: `${plural(bad.length, 'name')} ${p.label} changes on import (${rule.says}, at most ${rule.max} characters): ${shown.join(', ')}${bad.length > 3 ? '…' : ''}.`,
      fix: null,
    },
  ];
}

function bones(f: ModelFacts, p: TargetProfile): Finding[] {
  if (f.maxBonesPerVertex <= p.maxBonesPerVertex) return [];
  return [
    {
      code: 'bones-per-vertex',
      severity: 'warning',
      message: `Some vertices follow ${f.maxBonesPerVertex} bones; ${p.label} keeps ${p.maxBonesPerVertex}, so the skin may bend differently.`,
      fix: null,
    },
  ];
}
