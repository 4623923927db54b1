// Turns a parsed USDA layer (usda-parse.ts) into triangle meshes ready for a renderer: world-space
// positions in metres with Y up (xformOps composed down the prim tree, metersPerUnit applied, a Z-up stage
// turned Y-up), n-gons triangulated as fans, normals/st/displayColor expanded per their interpolation
// (constant, uniform, vertex, varying, faceVarying; indexed primvars too), the texture coordinates
// turned to the glTF convention the other loaders hand Babylon (v grows downwards: USD's v grows upwards),
// and each mesh's look: its bound UsdPreviewSurface's constant inputs, else its displayColor.
// The result is right-handed with counter-clockwise front faces, as glTF (usd-to-babylon.ts places it
// the way Babylon's glTF loader does). Plain TypeScript with no DOM or Babylon imports (unit-tested in Node).
import { triangleCross } from '../../../shared/vectors.ts';
import { UsdError, type UsdAttribute, type UsdLayer, type UsdPrim, type UsdValue } from './usda-parse.ts';
import { det3, flat, identity, invert, localTransform, type Mat, mul, scaling, Z_TO_Y } from './usd-transforms.ts';

export interface UsdLook {
  /** Linear RGB (USD colours are linear, as glTF's). */
  color: [number, number, number];
  opacity: number;
  metallic: number;
  roughness: number;
  emissive: [number, number, number];
}

export interface UsdMesh {
  name: string;
  path: string;
  positions: Float32Array;
  indices: Uint32Array;
  /** Authored, else area-weighted from the triangles (smooth over shared points). */
  normals: Float32Array;
  uvs?: Float32Array;
  /** RGBA per vertex, when displayColor varies over the mesh. */
  colors?: Float32Array;
  look: UsdLook;
  doubleSided: boolean;
}

export interface UsdScene {
  meshes: UsdMesh[];
  upAxis: string;
  metersPerUnit: number;
}

/** Row-major 4×4, row vectors (p' = p·M, translation in 12…14), as USD's GfMatrix4d and Babylon's Matrix. */
interface Primvar {
  values: number[];
  width: number;
  interpolation: string;
  indices?: number[];
}

function primvarOf(
  prim: UsdPrim,
  attr: UsdAttribute | undefined,
  name: string,
  width: number,
  counts: { points: number; faces: number; corners: number },
  fallback: string,
): Primvar | undefined {
  if (!attr || attr.value === undefined || attr.value === null) return undefined;
  const values = flat(attr.value);
  if (values.length === 0) return undefined;
  const indices = prim.attributes.get(`${name}:indices`)?.value;
  const idx = indices === undefined || indices === null ? undefined : flat(indices);
  const n = idx ? idx.length : values.length / width;
  let interpolation = attr.interpolation ?? fallback;
  // Nothing authored: go by the element count.
  if (!attr.interpolation && n !== expected(interpolation, counts))
    interpolation =
      n === counts.corners
        ? 'faceVarying'
        : n === counts.points
          ? 'vertex'
          : n === counts.faces
            ? 'uniform'
            : n === 1
              ? 'constant'
              : interpolation;
  if (n < expected(interpolation, counts)) return undefined; // too few values: ignored rather than read out of range
  return { values, width, interpolation, ...(idx && { indices: idx }) };
}

function expected(interpolation: string, counts: { points: number; faces: number; corners: number }): number {
  return interpolation === 'constant'
    ? 1
    : interpolation === 'uniform'
      ? counts.faces
      : interpolation === 'faceVarying'
        ? counts.corners
        : counts.points;
}

const perCorner = (p: Primvar | undefined) =>
  !!p && (p.interpolation === 'faceVarying' || p.interpolation === 'uniform');

/** The element of a primvar for one corner (k), of face f, on point p. */
function element(pv: Primvar, k: number, f: number, p: number): number {
  const i =
    pv.interpolation === 'constant'
      ? 0
      : pv.interpolation === 'uniform'
        ? f
        : pv.interpolation === 'faceVarying'
          ? k
          : p;
  return pv.indices ? (pv.indices[i] ?? 0) : i;
}

/** The layer's visible Mesh prims as triangle meshes (see the top of this file). */
export function meshesOf(layer: UsdLayer): UsdScene {
  const upAxis = typeof layer.metadata.upAxis === 'string' ? layer.metadata.upAxis : 'Y';
  // USD's fallback unit is the centimetre.
  const metersPerUnit =
    typeof layer.metadata.metersPerUnit === 'number' && layer.metadata.metersPerUnit > 0
      ? layer.metadata.metersPerUnit
      : 0.01;
  let stage = scaling([metersPerUnit, metersPerUnit, metersPerUnit]);
  if (upAxis === 'Z') stage = mul(Z_TO_Y, stage);
  const byPath = new Map<string, UsdPrim>();
  const index = (p: UsdPrim) => {
    if (p.specifier === 'def' || !byPath.has(p.path)) byPath.set(p.path, p);
    p.children.forEach(index);
  };
  layer.prims.forEach(index);

  const meshes: UsdMesh[] = [];
  const visit = (prim: UsdPrim, parent: Mat, binding: string | undefined) => {
    if (prim.specifier !== 'def' || prim.metadata.active === false) return;
    const visibility = prim.attributes.get('visibility')?.value;
    const purpose = prim.attributes.get('purpose')?.value;
    if (visibility === 'invisible' || purpose === 'guide' || prim.type === 'Material' || prim.type === 'Shader') return;
    const { matrix, reset } = localTransform(prim);
    const world = mul(matrix, reset ? identity() : parent);
    const bound = prim.relationships.get('material:binding')?.[0] ?? binding;
    if (prim.type === 'Mesh') {
      const mesh = meshOf(prim, mul(world, stage), lookOf(prim, bound ? byPath.get(bound) : undefined, byPath));
      if (mesh) meshes.push(mesh);
    }
    for (const child of prim.children) visit(child, world, bound);
  };
  for (const prim of layer.prims) visit(prim, identity(), undefined);
  return { meshes, upAxis, metersPerUnit };
}

function color3(v: UsdValue | undefined): [number, number, number] | undefined {
  const n = flat(v);
  return n.length >= 3 ? [n[0]!, n[1]!, n[2]!] : undefined;
}

/**
 * The mesh's bound UsdPreviewSurface's constant inputs (connected ones, i.e. textures, are not read), else
 * displayColor as a matte dielectric (roughness 0.8, as the engine's GLB of the same mesh).
 */
function lookOf(prim: UsdPrim, material: UsdPrim | undefined, byPath: Map<string, UsdPrim>): UsdLook {
  const display = prim.attributes.get('primvars:displayColor');
  const displayColor =
    display?.value !== undefined && flat(display.value).length === 3 ? color3(display.value) : undefined;
  const opacityValue = flat(prim.attributes.get('primvars:displayOpacity')?.value);
  const look: UsdLook = {
    color: displayColor ?? [0.8, 0.8, 0.8],
    opacity: opacityValue.length === 1 ? opacityValue[0]! : 1,
    metallic: 0,
    roughness: 0.8,
    emissive: [0, 0, 0],
  };
  if (!material) return look;
  const surface = material.attributes.get('outputs:surface')?.connect;
  const shaderPath = surface?.split('.')[0];
  const shader =
    (shaderPath && byPath.get(shaderPath)) ||
    material.children.find((c) => c.type === 'Shader' && c.attributes.get('info:id')?.value === 'UsdPreviewSurface');
  if (!shader) return look;
  const input = (name: string) => {
    const a = shader.attributes.get(`inputs:${name}`);
    return a && !a.connect ? a.value : undefined;
  };
  const diffuse = color3(input('diffuseColor'));
  if (diffuse) look.color = diffuse;
  else if (!displayColor && !shader.attributes.get('inputs:diffuseColor')?.connect) look.color = [0.18, 0.18, 0.18]; // the shader's fallback
  const num = (name: string) => {
    const v = input(name);
    return typeof v === 'number' ? v : undefined;
  };
  look.metallic = num('metallic') ?? 0;
  look.roughness = num('roughness') ?? 0.5;
  look.opacity = num('opacity') ?? look.opacity;
  look.emissive = color3(input('emissiveColor')) ?? [0, 0, 0];
  return look;
}

function meshOf(prim: UsdPrim, toWorld: Mat, look: UsdLook): UsdMesh | undefined {
  const points = flat(prim.attributes.get('points')?.value);
  const counts = flat(prim.attributes.get('faceVertexCounts')?.value);
  const fvi = flat(prim.attributes.get('faceVertexIndices')?.value);
  if (points.length < 9 || counts.length === 0 || fvi.length === 0) return undefined; // nothing to draw
  const pointCount = Math.floor(points.length / 3);
  let corners = 0;
  for (const c of counts) corners += c;
  if (corners !== fvi.length)
    throw new UsdError(
      `The mesh ${prim.path} is inconsistent: its faceVertexCounts add up to ${corners} corners but it has ${fvi.length} faceVertexIndices.`,
    );
  for (const i of fvi)
    if (!(i >= 0 && i < pointCount))
      throw new UsdError(`The mesh ${prim.path} is inconsistent: a face uses point ${i} of ${pointCount}.`);
  const n = { points: pointCount, faces: counts.length, corners };
  const normalsAttr = prim.attributes.get('primvars:normals') ?? prim.attributes.get('normals');
  const normalsName = prim.attributes.has('primvars:normals') ? 'primvars:normals' : 'normals';
  const normals = primvarOf(prim, normalsAttr, normalsName, 3, n, 'vertex');
  const stName =
    ['primvars:st', 'primvars:st0', 'primvars:UVMap', 'primvars:uv'].find((k) => prim.attributes.has(k)) ??
    [...prim.attributes.keys()].find(
      (k) =>
        k.startsWith('primvars:') &&
        !k.endsWith(':indices') &&
        prim.attributes.get(k)!.typeName.startsWith('texCoord2'),
    );
  const st = stName ? primvarOf(prim, prim.attributes.get(stName), stName, 2, n, 'vertex') : undefined;
  const displayAttr = prim.attributes.get('primvars:displayColor');
  let colors = primvarOf(prim, displayAttr, 'primvars:displayColor', 3, n, 'constant');
  if (colors?.interpolation === 'constant') colors = undefined; // the material's colour (lookOf)

  // Per-point output unless an attribute varies per corner or per face.
  const expanded = perCorner(normals) || perCorner(st) || perCorner(colors);
  const flip = (prim.attributes.get('orientation')?.value === 'leftHanded') !== det3(toWorld) < 0;
  // Normals go through the inverse transpose of the linear part (row vectors: n · (M⁻¹)ᵀ).
  const inv = invert(toWorld);
  const nm = [inv[0]!, inv[4]!, inv[8]!, inv[1]!, inv[5]!, inv[9]!, inv[2]!, inv[6]!, inv[10]!];

  const vertexCount = expanded ? corners : pointCount;
  const positions = new Float32Array(vertexCount * 3);
  const outNormals = normals ? new Float32Array(vertexCount * 3) : undefined;
  const uvs = st ? new Float32Array(vertexCount * 2) : undefined;
  const rgba = colors ? new Float32Array(vertexCount * 4) : undefined;
  const write = (v: number, k: number, f: number, p: number) => {
    const x = points[p * 3]!;
    const y = points[p * 3 + 1]!;
    const z = points[p * 3 + 2]!;
    const m = toWorld;
    positions[v * 3] = x * m[0]! + y * m[4]! + z * m[8]! + m[12]!;
    positions[v * 3 + 1] = x * m[1]! + y * m[5]! + z * m[9]! + m[13]!;
    positions[v * 3 + 2] = x * m[2]! + y * m[6]! + z * m[10]! + m[14]!;
    if (normals && outNormals) {
      const e = element(normals, k, f, p) * 3;
      const a = normals.values[e] ?? 0;
      const b = normals.values[e + 1] ?? 0;
      const c = normals.values[e + 2] ?? 0;
      const nx = a * nm[0]! + b * nm[3]! + c * nm[6]!;
      const ny = a * nm[1]! + b * nm[4]! + c * nm[7]!;
      const nz = a * nm[2]! + b * nm[5]! + c * nm[8]!;
      const len = Math.hypot(nx, ny, nz) || 1;
      outNormals[v * 3] = nx / len;
      outNormals[v * 3 + 1] = ny / len;
      outNormals[v * 3 + 2] = nz / len;
    }
    if (st && uvs) {
      const e = element(st, k, f, p) * 2;
      uvs[v * 2] = st.values[e] ?? 0;
      uvs[v * 2 + 1] = 1 - (st.values[e + 1] ?? 0); // USD's v grows upwards, glTF's (and the viewer's) downwards
    }
    if (colors && rgba) {
      const e = element(colors, k, f, p) * 3;
      rgba[v * 4] = colors.values[e] ?? 1;
      rgba[v * 4 + 1] = colors.values[e + 1] ?? 1;
      rgba[v * 4 + 2] = colors.values[e + 2] ?? 1;
      rgba[v * 4 + 3] = look.opacity;
    }
  };
  if (expanded) {
    let k = 0;
    counts.forEach((c, f) => {
      for (let j = 0; j < c; j++, k++) write(k, k, f, fvi[k]!);
    });
  } else for (let p = 0; p < pointCount; p++) write(p, -1, -1, p);

  let triangles = 0;
  for (const c of counts) if (c >= 3) triangles += c - 2;
  const indices = new Uint32Array(triangles * 3);
  let t = 0;
  let start = 0;
  for (const c of counts) {
    const id = (j: number) => (expanded ? start + j : fvi[start + j]!);
    // A fan from the face's first corner.
    for (let j = 1; j + 1 < c; j++) {
      indices[t++] = id(0);
      indices[t++] = id(flip ? j + 1 : j);
      indices[t++] = id(flip ? j : j + 1);
    }
    start += c;
  }
  const doubleSided = prim.attributes.get('doubleSided')?.value === true;
  return {
    name: prim.name,
    path: prim.path,
    positions,
    indices,
    normals: outNormals ?? computeNormals(positions, indices),
    ...(uvs && { uvs }),
    ...(rgba && { colors: rgba }),
    look: colors ? { ...look, color: [1, 1, 1] } : look,
    doubleSided,
  };
}

/** Area-weighted vertex normals of counter-clockwise triangles. */
export function computeNormals(positions: Float32Array, indices: Uint32Array): Float32Array {
  const out = new Float32Array(positions.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3;
    const b = indices[t + 1]! * 3;
    const c = indices[t + 2]! * 3;
    const [nx, ny, nz] = triangleCross(positions, indices[t]!, indices[t + 1]!, indices[t + 2]!);
    for (const v of [a, b, c]) {
      out[v]! += nx;
      out[v + 1]! += ny;
      out[v + 2]! += nz;
    }
  }
  for (let i = 0; i < out.length; i += 3) {
    const len = Math.hypot(out[i]!, out[i + 1]!, out[i + 2]!) || 1;
    out[i]! /= len;
    out[i + 1]! /= len;
    out[i + 2]! /= len;
  }
  return out;
}
