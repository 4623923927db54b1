// The silhouette as a flat, quad-dominant tessellation: marching squares over a grid of cells laid on the
// picture, with the signed distance to the subject's outline at the grid's corners. Cells inside are quads;
// cells the outline crosses are cut along it (the crossing points interpolated on the cell edges), giving
// triangles, quads and pentagons (split into a quad and a triangle). The outline itself is traced as closed loops.
import { type Field, sampleField } from './raster.ts';

export interface Tessellation {
  /** x, y per point, in picture pixels (x right, y down). */
  points: Float32Array;
  /** Signed distance to the outline at each point (pixels, 0 on the outline, positive inside). */
  depth: Float32Array;
  /** 1 for points on the outline. */
  rim: Uint8Array;
  /** Grid point (i, j) of each inside grid corner, -1 for outline points (used to relate neighbours). */
  gridIndex: Int32Array;
  /** Point indices of all polygons one after another; each polygon runs counter-clockwise with y up. */
  polygons: Uint32Array;
  /** Corners of each polygon (3 or 4). */
  sizes: Uint8Array;
  /** The grid: its origin (picture pixels), cell size and number of corners across and down. */
  grid: { x0: number; y0: number; cell: number; columns: number; rows: number };
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Cut points closer than this share of a cell to a corner are pushed away from it (no sliver faces). */
const MIN_CUT = 0.05;

/** The signed distance at the grid's corners; outside the picture counts as outside the subject. */
function cornerValues(sdf: Field, x0: number, y0: number, cell: number, columns: number, rows: number): Float32Array {
  const values = new Float32Array(columns * rows);
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < columns; i++) {
      const x = x0 + i * cell;
      const y = y0 + j * cell;
      let s = sampleField(sdf, x, y);
      s = Math.min(s, x, y, sdf.width - x, sdf.height - y);
      if (Math.abs(s) < MIN_CUT * cell) s = s >= 0 ? MIN_CUT * cell : -MIN_CUT * cell;
      values[j * columns + i] = s;
    }
  }
  return values;
}

function gridFor(box: Box, cell: number) {
  const x0 = box.x0 - cell;
  const y0 = box.y0 - cell;
  const columns = Math.ceil((box.x1 - box.x0) / cell) + 3;
  const rows = Math.ceil((box.y1 - box.y0) / cell) + 3;
  return { x0, y0, cell, columns, rows };
}

/** Faces the tessellation of one side has with this cell size: quads count one (or two triangles when `triangles`). */
export function countFaces(sdf: Field, box: Box, cell: number, triangles: boolean): number {
  const g = gridFor(box, cell);
  const v = cornerValues(sdf, g.x0, g.y0, cell, g.columns, g.rows);
  const { columns } = g;
  let faces = 0;
  for (let j = 0; j + 1 < g.rows; j++) {
    for (let i = 0; i + 1 < columns; i++) {
      const c0 = v[j * columns + i]!;
      const c1 = v[j * columns + i + 1]!;
      const c2 = v[(j + 1) * columns + i + 1]!;
      const c3 = v[(j + 1) * columns + i]!;
      const inside = (c0 > 0 ? 1 : 0) + (c1 > 0 ? 1 : 0) + (c2 > 0 ? 1 : 0) + (c3 > 0 ? 1 : 0);
      if (inside === 0) continue;
      if (inside === 4) faces += triangles ? 2 : 1;
      else if (inside === 1) faces += 1;
      else if (inside === 3) faces += triangles ? 3 : 2;
      else if (c0 > 0 === c2 > 0)
        faces += c0 + c1 + c2 + c3 > 0 && triangles ? 4 : 2; // saddle
      else faces += triangles ? 2 : 1;
    }
  }
  return faces;
}

const cellCorners = (v: Float32Array, columns: number, i: number, j: number) => [
  v[j * columns + i]!,
  v[j * columns + i + 1]!,
  v[(j + 1) * columns + i + 1]!,
  v[(j + 1) * columns + i]!,
];

/** The tessellation of the region where `sdf` > 0 within `box`, with cells of `cell` pixels. */
export function tessellate(sdf: Field, box: Box, cell: number): Tessellation {
  const g = gridFor(box, cell);
  const { columns, rows } = g;
  const v = cornerValues(sdf, g.x0, g.y0, cell, columns, rows);
  const points: number[] = [];
  const depth: number[] = [];
  const rim: number[] = [];
  const gridIndex: number[] = [];
  const polygons: number[] = [];
  const sizes: number[] = [];

  const cornerId = new Int32Array(columns * rows).fill(-1);
  const corner = (i: number, j: number) => {
    const k = j * columns + i;
    if (cornerId[k]! < 0) {
      cornerId[k] = depth.length;
      points.push(g.x0 + i * cell, g.y0 + j * cell);
      depth.push(v[k]!);
      rim.push(0);
      gridIndex.push(k);
    }
    return cornerId[k]!;
  };
  // Cut points on horizontal edges (i, j)-(i+1, j) and vertical edges (i, j)-(i, j+1).
  const hCut = new Int32Array(columns * rows).fill(-1);
  const vCut = new Int32Array(columns * rows).fill(-1);
  const cut = (i: number, j: number, horizontal: boolean) => {
    const table = horizontal ? hCut : vCut;
    const k = j * columns + i;
    if (table[k]! < 0) {
      const a = v[k]!;
      const b = horizontal ? v[k + 1]! : v[k + columns]!;
      const t = a / (a - b);
      table[k] = depth.length;
      points.push(g.x0 + (i + (horizontal ? t : 0)) * cell, g.y0 + (j + (horizontal ? 0 : t)) * cell);
      depth.push(0);
      rim.push(1);
      gridIndex.push(-1);
    }
    return table[k]!;
  };
  const emit = (poly: number[]) => {
    // The walk below runs clockwise with y up; polygons are stored counter-clockwise.
    for (let k = poly.length - 1; k >= 0; k--) polygons.push(poly[k]!);
    sizes.push(poly.length);
  };

  for (let j = 0; j + 1 < rows; j++) {
    for (let i = 0; i + 1 < columns; i++) {
      const c = cellCorners(v, columns, i, j);
      const inside = c.map((s) => s > 0);
      const count = inside.filter(Boolean).length;
      if (count === 0) continue;
      // Corners clockwise with y up (top-left, top-right, bottom-right, bottom-left in the picture), each followed by the cut on the edge to the next.
      const cornerIds = [
        () => corner(i, j),
        () => corner(i + 1, j),
        () => corner(i + 1, j + 1),
        () => corner(i, j + 1),
      ];
      const cuts = [
        () => cut(i, j, true),
        () => cut(i + 1, j, false),
        () => cut(i, j + 1, true),
        () => cut(i, j, false),
      ];
      if (count === 4) {
        emit(cornerIds.map((f) => f()));
        continue;
      }
      if (count === 2 && inside[0] === inside[2]) {
        // Saddle: joined through the middle when the centre is inside, else two corners cut off.
        const a = inside[0] ? 0 : 1;
        const b = a + 2;
        if (c[0]! + c[1]! + c[2]! + c[3]! > 0) {
          emit([cornerIds[a]!(), cuts[a]!(), cuts[(a + 1) % 4]!(), cornerIds[b]!()]);
          emit([cornerIds[b]!(), cuts[b]!(), cuts[(b + 1) % 4]!(), cornerIds[a]!()]);
        } else {
          emit([cornerIds[a]!(), cuts[a]!(), cuts[(a + 3) % 4]!()]);
          emit([cornerIds[b]!(), cuts[b]!(), cuts[(b + 3) % 4]!()]);
        }
        continue;
      }
      // One run of inside corners: start at the first inside corner after an outside one.
      let start = 0;
      while (!(inside[start] && !inside[(start + 3) % 4])) start++;
      const run: number[] = [];
      for (let k = 0; k < count; k++) run.push(cornerIds[(start + k) % 4]!());
      const exit = cuts[(start + count - 1) % 4]!(); // leaving the last inside corner
      const enter = cuts[(start + 3) % 4]!(); // the edge into the first inside corner
      if (count === 3) {
        // Pentagon enter, c0, c1, c2, exit: a quad of the three corners and the exit, and the triangle left.
        emit([run[0]!, run[1]!, run[2]!, exit]);
        emit([enter, run[0]!, exit]);
      } else {
        emit([...run, exit, enter]);
      }
    }
  }
  return {
    points: Float32Array.from(points),
    depth: Float32Array.from(depth),
    rim: Uint8Array.from(rim),
    gridIndex: Int32Array.from(gridIndex),
    polygons: Uint32Array.from(polygons),
    sizes: Uint8Array.from(sizes),
    grid: g,
  };
}

/**
 * The outline as closed loops of rim points (each loop in order, counter-clockwise around the subject, clockwise
 * around a hole), from the rim edges of the tessellation: edges between two outline points, used by one polygon only.
 */
export function traceOutlines(t: Tessellation): number[][] {
  const next = new Map<number, number>();
  let offset = 0;
  for (const size of t.sizes) {
    for (let k = 0; k < size; k++) {
      const a = t.polygons[offset + k]!;
      const b = t.polygons[offset + ((k + 1) % size)]!;
      if (t.rim[a] === 1 && t.rim[b] === 1) {
        if (next.has(a)) throw new Error(`outline point ${a} starts two rim edges`);
        next.set(a, b);
      }
    }
    offset += size;
  }
  const loops: number[][] = [];
  const done = new Set<number>();
  for (const start of next.keys()) {
    if (done.has(start)) continue;
    const loop: number[] = [];
    let p = start;
    while (!done.has(p)) {
      done.add(p);
      loop.push(p);
      const q = next.get(p);
      if (q === undefined) throw new Error(`outline point ${p} ends no rim edge: the outline is not closed`);
      p = q;
    }
    if (p !== start) throw new Error('an outline loop joins another one');
    loops.push(loop);
  }
  return loops;
}

/** Signed area of a loop of points with y up (positive when counter-clockwise). */
export function loopArea(t: Tessellation, loop: number[]): number {
  let area = 0;
  for (let k = 0; k < loop.length; k++) {
    const a = loop[k]!;
    const b = loop[(k + 1) % loop.length]!;
    // y grows downwards in the picture: flip it.
    area += t.points[a * 2]! * -t.points[b * 2 + 1]! - t.points[b * 2]! * -t.points[a * 2 + 1]!;
  }
  return area / 2;
}
