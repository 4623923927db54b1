// The one place a name is taken from a URL (job labels, export folders and files, clip and mesh names in the
// page). The service hands out signed URLs (Azure SAS: `…/mesh.glb?sp=r&st=…&se=…&sv=…&sr=b&sig=…`), so a
// name is the basename of the URL's path only, percent-decoded: never its query string or fragment.

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The file name a URL (or a local path) points at: `mesh.glb` for `https://host/a/mesh.glb?sp=r&sig=…`,
 * `Moon walk.fbx` for `…/Moon%20walk.fbx`. A data URI has no name (''). Text that is not a URL is read as a
 * path: its last segment, with nothing cut (a file name may hold `?` or `#`).
 */
export function fileNameOf(ref: string): string {
  const text = ref.trim();
  if (text === '' || /^data:/i.test(text)) return '';
  if (SCHEME.test(text)) {
    let path: string;
    try {
      path = new URL(text).pathname;
    } catch {
      path = text.replace(SCHEME, '').replace(/[?#].*$/s, '');
    }
    const last =
      path
        .split('/')
        .filter((s) => s !== '')
        .pop() ?? '';
    try {
      return decodeURIComponent(last);
    } catch {
      return last;
    }
  }
  return text.split(/[\\/]/).pop() ?? text;
}

/** `fileNameOf` without its extension: `mesh` for `…/mesh.glb?sig=…`. */
export function fileStemOf(ref: string): string {
  const name = fileNameOf(ref);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}
