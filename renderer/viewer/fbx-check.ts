// The FBX check before an animation upload: the picked file is opened in a small viewer from the File
// itself (nothing is uploaded) and its box is compared with the service's reference pose: a character
// standing up (Y up), facing forward (+Z), so taller than it is deep, and wider (arms) than deep.
import { loadBabylon } from './load-babylon.ts';
import type { ModelStats } from './types.ts';

export interface FbxCheck {
  stats: ModelStats;
  bones: number;
  warnings: string[];
}

/** What looks wrong about the model's orientation, in words (empty when it matches the reference pose). */
export function poseWarnings(stats: ModelStats): string[] {
  const [x, y, z] = stats.size;
  const warnings: string[] = [];
  if (y < 0.6 * Math.max(x, z)) {
    warnings.push(
      `It is ${Math.max(x, z) > x ? 'much deeper' : 'much wider'} than tall (${fmt(x)} × ${fmt(y)} × ${fmt(z)}): it probably lies down, e.g. exported Z up. Export it Y up, standing, facing forward (+Z).`,
    );
  } else if (z > 1.3 * x) {
    warnings.push(`It is deeper than wide (${fmt(x)} × ${fmt(y)} × ${fmt(z)}): it may face sideways. Turn it to face forward (+Z), like the reference pose.`);
  }
  if (stats.meshes === 0) warnings.push('It has no mesh.');
  return warnings;
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2));

export interface FbxChecker {
  check(file: File): Promise<FbxCheck>;
  dispose(): void;
}

/** A small viewer on the canvas that opens picked files (Babylon is loaded on first use). */
export async function createFbxChecker(canvas: HTMLCanvasElement): Promise<FbxChecker> {
  const { createViewer, boneCount } = await loadBabylon();
  const viewer = createViewer(canvas);
  return {
    async check(file) {
      const stats = await viewer.load({ files: [file] });
      return { stats, bones: boneCount(canvas), warnings: poseWarnings(stats) };
    },
    dispose: () => viewer.dispose(),
  };
}
