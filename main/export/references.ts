// OBJ and MTL name their companions (`mtllib x.mtl`, `map_Kd x.png`): when the export renames those files,
// the references are renamed with them, so the engine still finds the material and its textures.
import { basename } from 'node:path';

/** Statements whose last word is a texture file (options such as `-s 1 1 1` come before it). */
const TEXTURE_STATEMENT = /^(map_\w+|bump|disp|decal|refl|norm)$/i;

/**
 * Rewrites the file references of an OBJ (`mtllib`) or MTL (texture maps). `renames` maps a source
 * file name in lower case to its new name; references to other files are left as they are, unless
 * `dropUnknownLibraries`: then an OBJ's `mtllib` names only libraries in `renames` (written beside it), and
 * a `mtllib` line naming none of them goes (an engine would look for a file that is not there).
 */
export function rewriteReferences(
  kind: 'obj' | 'mtl',
  text: string,
  renames: ReadonlyMap<string, string>,
  dropUnknownLibraries = false,
): string {
  const key = (ref: string) => basename(ref.replaceAll('\\', '/')).toLowerCase();
  const rename = (ref: string) => renames.get(key(ref)) ?? ref;
  return text.replace(
    /^([ \t]*)(\S+)([ \t]+)(.*?)([ \t]*)$(\r?\n)?/gm,
    (line, indent: string, keyword: string, gap: string, rest: string, tail: string, end = '') => {
      if (kind === 'obj' && keyword === 'mtllib') {
        const names = rest.split(/[ \t]+/).filter((w) => !dropUnknownLibraries || renames.has(key(w)));
        if (names.length === 0) return '';
        if (dropUnknownLibraries) return indent + keyword + gap + names.map(rename).join(' ') + tail + end;
        return (
          indent +
          keyword +
          gap +
          rest
            .split(/([ \t]+)/)
            .map((w, i) => (i % 2 ? w : rename(w)))
            .join('') +
          tail +
          end
        );
      }
      if (kind === 'mtl' && TEXTURE_STATEMENT.test(keyword)) {
        const at = rest.search(/\S+$/);
        return indent + keyword + gap + rest.slice(0, at) + rename(rest.slice(at)) + tail + end;
      }
      return line;
    },
  );
}
