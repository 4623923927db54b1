// Horizontal cross-sections of a solid voxel grid (voxels.ts): each layer's 4-connected pieces (two legs, a
// body and two arms…) with their cells and centroid, and pieces followed from one layer to the next by
// the cells they share (a leg upward from its foot until both legs become one body at the crotch).
import type { V3 } from '../../formats/character.ts';
import { cellIndex, type Voxels } from './voxels.ts';

export interface Piece {
  /** The piece's label in its layer's `labels`. */
  label: number;
  /** Cells as indices within the layer (x + nx·z). */
  cells: number[];
  /** Centroid, world x and z. */
  x: number;
  z: number;
}

export interface Section {
  y: number;
  /** Per cell of the layer: its piece's label, or -1 outside the body. */
  labels: Int32Array;
  pieces: Piece[];
}

export class Sections {
  readonly #v: Voxels;
  readonly #cache = new Map<number, Section>();

  constructor(v: Voxels) {
    this.#v = v;
  }

  /** The layer holding world height `y` (clamped to the grid). */
  layerOf(y: number): number {
    return Math.max(0, Math.min(this.#v.ny - 1, Math.floor((y - this.#v.origin[1]) / this.#v.size)));
  }

  /** World height of a layer's middle. */
  heightOf(layer: number): number {
    return this.#v.origin[1] + (layer + 0.5) * this.#v.size;
  }

  /** The world position of a layer's cell (its centre). */
  pointOf(layer: number, cell: number): V3 {
    const v = this.#v;
    return [
      v.origin[0] + ((cell % v.nx) + 0.5) * v.size,
      this.heightOf(layer),
      v.origin[2] + (Math.floor(cell / v.nx) + 0.5) * v.size,
    ];
  }

  at(y: number): Section {
    const known = this.#cache.get(y);
    if (known) return known;
    const v = this.#v;
    const area = v.nx * v.nz;
    const base = cellIndex(v, 0, y, 0);
    const labels = new Int32Array(area).fill(-1);
    const pieces: Piece[] = [];
    const stack: number[] = [];
    for (let start = 0; start < area; start++) {
      if (labels[start] !== -1 || v.cells[base + start] === 0) continue;
      const label = pieces.length;
      const cells: number[] = [];
      labels[start] = label;
      stack.push(start);
      while (stack.length > 0) {
        const c = stack.pop()!;
        cells.push(c);
        const x = c % v.nx;
        const neighbours = [x > 0 ? c - 1 : -1, x < v.nx - 1 ? c + 1 : -1, c - v.nx, c + v.nx];
        for (const n of neighbours) {
          if (n < 0 || n >= area || labels[n] !== -1 || v.cells[base + n] === 0) continue;
          labels[n] = label;
          stack.push(n);
        }
      }
      let sx = 0;
      let sz = 0;
      for (const c of cells) {
        sx += (c % v.nx) + 0.5;
        sz += Math.floor(c / v.nx) + 0.5;
      }
      pieces.push({
        label,
        cells,
        x: v.origin[0] + (sx / cells.length) * v.size,
        z: v.origin[2] + (sz / cells.length) * v.size,
      });
    }
    const section = { y, labels, pieces };
    this.#cache.set(y, section);
    return section;
  }

  /** The piece of layer `y` sharing the most cells with `piece` (of the layer next to it), if any. */
  follow(piece: Piece, y: number): Piece | undefined {
    const next = this.at(y);
    const votes = new Map<number, number>();
    for (const c of piece.cells) {
      const label = next.labels[c]!;
      if (label >= 0) votes.set(label, (votes.get(label) ?? 0) + 1);
    }
    let best: number | undefined;
    for (const [label, n] of votes) if (best === undefined || n > votes.get(best)!) best = label;
    return best === undefined ? undefined : next.pieces[best];
  }

  /** Lowest and highest of a piece's cells projected on a horizontal direction (world units). */
  extent(piece: Piece, dir: V3): [number, number] {
    const v = this.#v;
    let lo = Infinity;
    let hi = -Infinity;
    for (const c of piece.cells) {
      const x = v.origin[0] + ((c % v.nx) + 0.5) * v.size;
      const z = v.origin[2] + (Math.floor(c / v.nx) + 0.5) * v.size;
      const d = x * dir[0] + z * dir[2];
      lo = Math.min(lo, d);
      hi = Math.max(hi, d);
    }
    return [lo, hi];
  }
}
