// The one table of content types, by file extension, for every file main serves: the local engine's
// outputs, the renderer's files (web host and Electron's app://), cached outputs and the files inside a
// cached zip. Anything not listed is sent as bytes.

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  wasm: 'application/wasm',
  woff2: 'font/woff2',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  glb: 'model/gltf-binary',
  gltf: 'model/gltf+json',
  obj: 'model/obj',
  mtl: 'model/mtl',
  usdz: 'model/vnd.usdz+zip',
  zip: 'application/zip',
  mp4: 'video/mp4',
};

export const BYTES = 'application/octet-stream';

/** The content type of a file extension (`glb`, `.glb`, `GLB`), or application/octet-stream. */
export function contentTypeOfExtension(extension: string): string {
  return TYPES[extension.replace(/^\./, '').toLowerCase()] ?? BYTES;
}

/** The content type of a file by its name or path (`mesh.obj`, `textures/albedo.PNG`); no extension: bytes. */
export function contentTypeOf(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? BYTES : contentTypeOfExtension(base.slice(dot + 1));
}
