// The silhouette inflated into a closed surface: the flat tessellation is used twice, as the front (facing +Z)
// and as the back (facing -Z, its polygons reversed), joined along the outline where both have zero depth.
// Depth grows with the distance to the outline, as the cross-section of a round body whose radius is the
// largest disc that fits there (so a leg is a tube as thick as it is wide, a head a ball): z = √(d·(2r − d)).
// The front's UVs map the picture onto the left half of the texture atlas, the back's onto the right half.
import { type PolygonMesh, triangulate, weldedNormals } from '../outputs/polygon-mesh.ts';
import type { Tessellation } from './outline.ts';

/** The square of the picture (pixels) the texture atlas's halves show. */
export interface Crop {
  x: number;
  y: number;
  size: number;
}

/** Depth relative to the round cross-section: 1 is as deep as wide, less is flatter. */
const DEPTH = 0.85;
/** No cross-section is rounder than this share of the silhouette's longer side: a large flat part (a chair's back) stays a slab. */
const MAX_RADIUS_SHARE = 0.1;
/** A corner is on the medial axis when no neighbour is farther from the outline by this share of their distance. */
const RIDGE = 0.6;

/** The relief in picture pixels (x right, y up, z towards the viewer); see mesh-options for its size and place. */
export function buildRelief(t: Tessellation, crop: Crop): PolygonMesh {
  const count = t.depth.length;
  const heights = reliefHeights(t);
  const positions = new Float32Array(count * 2 * 3);
  const uvs = new Float32Array(count * 2 * 2);
  const weld = new Uint32Array(count * 2);
  for (let p = 0; p < count; p++) {
    const x = t.points[p * 2]!;
    const y = t.points[p * 2 + 1]!;
    const z = heights[p]!;
    positions.set([x, -y, z], p * 3);
    positions.set([x, -y, -z], (count + p) * 3);
    const u = (x - crop.x) / crop.size;
    const v = (y - crop.y) / crop.size;
    uvs.set([0.5 * clamp01(u), clamp01(v)], p * 2);
    uvs.set([0.5 + 0.5 * clamp01(u), clamp01(v)], (count + p) * 2);
    weld[p] = p;
    weld[count + p] = t.rim[p] === 1 ? p : count + p;
  }
  const polygons = new Uint32Array(t.polygons.length * 2);
  polygons.set(t.polygons);
  let offset = 0;
  for (const size of t.sizes) {
    for (let k = 0; k < size; k++)
      polygons[t.polygons.length + offset + k] = count + t.polygons[offset + size - 1 - k]!;
    offset += size;
  }
  const sizes = new Uint8Array(t.sizes.length * 2);
  sizes.set(t.sizes);
  sizes.set(t.sizes, t.sizes.length);
  const normals = weldedNormals(positions, triangulate({ positions, polygons, sizes }), weld);
  return { positions, normals, uvs, polygons, sizes, weld };
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** Depth of every point of the tessellation: zero on the outline, a round cross-section inside. */
function reliefHeights(t: Tessellation): Float32Array {
  const { columns, rows, cell } = t.grid;
  const d = new Float32Array(columns * rows).fill(-1);
  for (let p = 0; p < t.depth.length; p++) if (t.gridIndex[p]! >= 0) d[t.gridIndex[p]!] = t.depth[p]!;

  // The radius of the largest inside disc covering each corner: discs of the medial-axis corners splatted.
  const radius = new Float32Array(columns * rows);
  for (let k = 0; k < d.length; k++) radius[k] = Math.max(0, d[k]!);
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < columns; i++) {
      const k = j * columns + i;
      const dk = d[k]!;
      if (dk <= 0 || !isRidge(d, columns, rows, i, j, cell)) continue;
      const reach = Math.floor(dk / cell);
      for (let dj = -reach; dj <= reach; dj++) {
        const jj = j + dj;
        if (jj < 0 || jj >= rows) continue;
        const span = Math.floor(Math.sqrt(reach * reach - dj * dj));
        for (let ii = Math.max(0, i - span); ii <= Math.min(columns - 1, i + span); ii++) {
          const q = jj * columns + ii;
          if (radius[q]! < dk) radius[q] = dk;
        }
      }
    }
  }
  const smooth = blurInside(blurInside(radius, d, columns, rows), d, columns, rows);

  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let p = 0; p < t.depth.length; p++) {
    minX = Math.min(minX, t.points[p * 2]!);
    maxX = Math.max(maxX, t.points[p * 2]!);
    minY = Math.min(minY, t.points[p * 2 + 1]!);
    maxY = Math.max(maxY, t.points[p * 2 + 1]!);
  }
  const cap = MAX_RADIUS_SHARE * Math.max(maxX - minX, maxY - minY);
  const heights = new Float32Array(t.depth.length);
  for (let p = 0; p < t.depth.length; p++) {
    const k = t.gridIndex[p]!;
    if (k < 0) continue; // on the outline
    const depth = t.depth[p]!;
    const r = Math.min(cap, Math.max(depth, smooth[k]!));
    heights[p] = DEPTH * (depth >= r ? r : Math.sqrt(depth * (2 * r - depth)));
  }
  return heights;
}

function isRidge(d: Float32Array, columns: number, rows: number, i: number, j: number, cell: number): boolean {
  const dk = d[j * columns + i]!;
  for (let dj = -1; dj <= 1; dj++) {
    for (let di = -1; di <= 1; di++) {
      if (di === 0 && dj === 0) continue;
      const ii = i + di;
      const jj = j + dj;
      if (ii < 0 || jj < 0 || ii >= columns || jj >= rows) continue;
      if (d[jj * columns + ii]! - dk >= RIDGE * cell * Math.hypot(di, dj)) return false;
    }
  }
  return true;
}

/** A 3×3 average over the inside corners (outside ones neither read nor written). */
function blurInside(values: Float32Array, d: Float32Array, columns: number, rows: number): Float32Array {
  const out = new Float32Array(values);
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < columns; i++) {
      if (d[j * columns + i]! <= 0) continue;
      let sum = 0;
      let n = 0;
      for (let jj = Math.max(0, j - 1); jj <= Math.min(rows - 1, j + 1); jj++) {
        for (let ii = Math.max(0, i - 1); ii <= Math.min(columns - 1, i + 1); ii++) {
          if (d[jj * columns + ii]! <= 0) continue;
          sum += values[jj * columns + ii]!;
          n++;
        }
      }
      out[j * columns + i] = sum / n;
    }
  }
  return out;
}
