// The root layer of a USDZ package: a ZIP archive (read by ../zip-archive.ts; the USDZ specification wants
// its entries stored, 64-byte aligned) whose first USD file is the scene. Plain TypeScript with no DOM or
// Babylon imports: the unit tests run it in Node.
import { type ArchiveEntry, listEntries, readEntry } from '../zip-archive.ts';

export class UsdzError extends Error {
  override name = 'UsdzError';
}

/** What the archive's messages call it. */
const USDZ = 'USDZ package';

const LAYER = /\.(usda|usdc|usd)$/i;

/** The package's root layer: its first USD file (as the USDZ specification says), with its name and bytes. */
export async function rootLayer(
  bytes: Uint8Array,
): Promise<{ name: string; data: Uint8Array; entries: ArchiveEntry[] }> {
  const entries = listEntries(bytes, USDZ);
  const first = entries.find((e) => LAYER.test(e.name));
  if (!first)
    throw new UsdzError(
      `This USDZ package holds no USD layer (.usda, .usdc or .usd); it holds ${
        entries.length === 0
          ? 'nothing'
          : entries
              .map((e) => e.name)
              .slice(0, 5)
              .join(', ')
      }.`,
    );
  return { name: first.name, data: await readEntry(bytes, first, USDZ), entries };
}
