// A size as the app writes it everywhere (messages of main/, the CLI, the renderer's tables): binary units with
// their binary names, so "1.5 MiB" is what the file system's 1,572,864 bytes are (never "MB" for 2^20).

const UNITS: readonly [size: number, name: string][] = [
  [2 ** 40, 'TiB'],
  [2 ** 30, 'GiB'],
  [2 ** 20, 'MiB'],
  [2 ** 10, 'KiB'],
];

/** `2 GiB`, `50 MiB`, `12.5 KiB`, `300 bytes` (one decimal at most). */
export function formatBytes(bytes: number): string {
  for (const [size, unit] of UNITS) if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  return `${bytes} bytes`;
}
