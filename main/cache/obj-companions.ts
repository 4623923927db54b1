// The files an OBJ output names, kept with it: its MTL (`mtllib`) and the textures the MTL names
// (`map_Kd` …), downloaded from beside the OBJ's URL (the engine signs an OBJ's folder, so a name resolves
// against the OBJ's URL as a viewer resolves it) under the output kind `<OBJ key>:<name>` (`obj:mesh.mtl`).
// Without them an OBJ export would name a material library it does not have.
import { open } from 'node:fs/promises';
import { formatOutputKind, isObjOutput, OBJ_FILE_NAME, parseOutputKind } from '../../shared/output-kind.ts';
import type { DownloadCache } from './download-cache.ts';

/** How much of an OBJ or MTL is read to find its references (writers put `mtllib` at the top). */
const HEAD_BYTES = 1 << 20;
const TEXTURE_STATEMENT = /^[ \t]*(?:map_\w+|bump|disp|decal|refl|norm)[ \t]+(?:.*[ \t])?(\S+)[ \t]*$/gim;

/** The material libraries an OBJ names (`mtllib a.mtl b.mtl`), as plain file names. */
export function mtlLibraries(obj: string): string[] {
  return [...obj.matchAll(/^[ \t]*mtllib[ \t]+(.+?)[ \t]*$/gm)]
    .flatMap((m) => m[1]!.split(/[ \t]+/))
    .flatMap(plainName);
}

/** The texture files an MTL names, as plain file names. */
export function mtlTextures(mtl: string): string[] {
  return [...new Set([...mtl.matchAll(TEXTURE_STATEMENT)].flatMap((m) => plainName(m[1]!)))];
}

/** A reference's file name when it is a plain name beside the file (a folder or `..` is not fetched). */
function plainName(ref: string): string[] {
  const name = ref.replaceAll('\\', '/');
  return !name.includes('/') && OBJ_FILE_NAME.test(name) ? [name] : [];
}

export interface CompanionRequest {
  sessionId: string;
  jobId?: string | undefined;
  /** The OBJ's output kind (`obj`, `preview_obj`, `retopo_obj`, `retopo_obj_1`, …). */
  objKind: string;
  objUrl: string;
  /** The OBJ's verified blob. */
  objPath: string;
  /** A fresh URL of the OBJ, when a companion's link is refused (expired signature). */
  refreshObjUrl?: () => Promise<string | undefined>;
  label?: string | undefined;
}

/**
 * Downloads the MTL an OBJ names and the textures that MTL names into the cache, each as
 * `<objKind>:<name>`. Returns each file fetched; throws the first download's error (a DownloadError).
 */
export async function fetchObjCompanions(
  cache: DownloadCache,
  req: CompanionRequest,
): Promise<{ kind: string; path: string }[]> {
  if (!isObjOutput(parseOutputKind(req.objKind))) return [];
  const fetched: { kind: string; path: string }[] = [];
  const fetchName = async (name: string) => {
    const kind = formatOutputKind({ type: 'obj-file', of: req.objKind, name });
    const beside = (url: string) => new URL(encodeURIComponent(name), url).href;
    const refresh = req.refreshObjUrl;
    const refreshUrl =
      refresh &&
      (async () => {
        const url = await refresh();
        return url === undefined ? undefined : beside(url);
      });
    const path = await cache.fetchOutput({
      sessionId: req.sessionId,
      jobId: req.jobId,
      kind,
      url: beside(req.objUrl),
      refreshUrl,
      label: req.label,
    });
    fetched.push({ kind, path });
    return path;
  };
  for (const mtl of mtlLibraries(await readHead(req.objPath))) {
    const path = await fetchName(mtl);
    for (const texture of mtlTextures(await readHead(path))) await fetchName(texture);
  }
  return fetched;
}

async function readHead(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
}
