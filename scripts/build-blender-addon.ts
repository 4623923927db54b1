// Zips the Blender add-on (integrations/blender/asset_studio/) into dist/blender/asset_studio-<version>.zip,
// the file to install from Blender's Preferences → Add-ons → Install… (the zip holds the package folder
// `asset_studio/` at its top, as Blender expects). electron-builder ships it beside the app (extraResources).
// `node scripts/build-blender-addon.ts [out dir]`; scripts/build.ts and `npm start` (scripts/start.ts) run it too.
// What the add-on does and how to install it: integrations/blender/README.md.
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { buildZip, type ZipEntry } from '../main/formats/zip.ts';

const ROOT = resolve(import.meta.dirname, '..');
export const ADDON_DIR = join(ROOT, 'integrations', 'blender', 'asset_studio');
export const BLENDER_OUT = join(ROOT, 'dist', 'blender');

/** The add-on's files as zip entries (`asset_studio/...`), without caches and compiled files, in a stable order. */
export function addonEntries(dir = ADDON_DIR): ZipEntry[] {
  const entries: ZipEntry[] = [];
  const walk = (folder: string) => {
    for (const item of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, item.name);
      if (item.isDirectory()) {
        if (item.name !== '__pycache__') walk(path);
      } else if (item.isFile() && !/\.py[co]$/.test(item.name)) {
        entries.push({ name: ['asset_studio', ...relative(dir, path).split(sep)].join('/'), data: readFileSync(path) });
      }
    }
  };
  walk(dir);
  return entries;
}

/** Writes the add-on's zip into `outDir` and returns its path. */
export function buildBlenderAddon(outDir = BLENDER_OUT): string {
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, `asset_studio-${version}.zip`);
  // Written beside it and renamed into place: two starts at once never leave (or read) half a zip.
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, buildZip(addonEntries()));
  renameSync(temporary, path);
  return path;
}

if (import.meta.main) {
  const path = buildBlenderAddon(process.argv[2] === undefined ? undefined : resolve(process.argv[2]));
  console.log(`built ${relative(process.cwd(), path)}`);
}
