// A .gltf picked from disk names its other files (buffers, images) by relative URI; they must be among the
// files picked with it. Checked before loading, so that a missing one is named in the error rather than
// requested from a file: URL the page cannot read.

/** The files a glTF JSON refers to (data: URIs excluded), as names relative to its folder. */
export function referencedFiles(json: unknown): string[] {
  if (json === null || typeof json !== 'object') return [];
  const root = json as { buffers?: unknown; images?: unknown };
  const uris: string[] = [];
  for (const list of [root.buffers, root.images]) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const uri = (item as { uri?: unknown } | null)?.uri;
      if (typeof uri !== 'string' || uri.startsWith('data:')) continue;
      let name = uri;
      try {
        name = decodeURIComponent(uri);
      } catch {
        // a malformed escape: the name as written
      }
      uris.push(name.replace(/^\.\//, ''));
    }
  }
  return [...new Set(uris)];
}

/**
 * The referenced files not among `picked` (compared by file name, case-insensitively, as the viewer's file
 * store keys them; a path in the URI is matched by its last part, since picked files come without folders).
 */
export function missingFiles(json: unknown, picked: readonly string[]): string[] {
  const have = new Set(picked.map((name) => name.toLowerCase()));
  return referencedFiles(json).filter((uri) => !have.has(uri.split('/').pop()!.toLowerCase()));
}
