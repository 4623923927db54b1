// The files a model names beside itself, checked before Babylon loads it: a .gltf's buffers and images
// (among the files picked with it), an OBJ's material library (picked with it, or beside its URL). A
// missing one is named to the user instead of being requested from where it is not.
import { FilesInputStore } from '@babylonjs/core/Misc/filesInputStore.js';
import { missingFiles, referencedFiles } from './gltf-files.ts';

/** How much of an OBJ is read to find its `mtllib` (OBJ writers put it at the top). */
const HEAD_BYTES = 1 << 20;

/**
 * A .gltf's buffers and images must be among the files picked with it: a missing one is named (Babylon would
 * ask a file: URL for it and fail without saying which). Files it names with a folder (`textures/a.png`) are
 * found by their name among the picked files.
 */
export async function checkGltfFiles(main: File, files: readonly File[]): Promise<void> {
  let json: unknown;
  try {
    json = JSON.parse(await main.text());
  } catch (error) {
    throw new Error(
      `${main.name} is not valid glTF JSON (${error instanceof Error ? error.message : String(error)}). If it is a binary glTF, rename it to .glb.`,
    );
  }
  const missing = missingFiles(
    json,
    files.map((f) => f.name),
  );
  if (missing.length > 0) {
    const list = missing.join(', ');
    throw new Error(
      `${main.name} needs ${list}, which ${missing.length > 1 ? 'were' : 'was'} not picked with it. Pick the .gltf together with all its files (its .bin and textures), or open the model's .glb.`,
    );
  }
  for (const uri of referencedFiles(json)) {
    const name = uri.split('/').pop()!.toLowerCase();
    const file = files.find((f) => f.name.toLowerCase() === name);
    if (file) FilesInputStore.FilesToLoad[uri.toLowerCase()] = file;
  }
}

/**
 * The material library an OBJ names (its first `mtllib`), read from its first megabyte (where OBJ writers
 * put it), from a picked file or by URL.
 */
export async function objMaterialLibrary(source: File | string): Promise<string | undefined> {
  let text: string;
  try {
    text = typeof source === 'string' ? await headOfUrl(source) : await source.slice(0, HEAD_BYTES).text();
  } catch {
    return undefined; // the loader reports what is wrong with the file itself
  }
  return /^[ \t]*mtllib[ \t]+(.+?)[ \t]*$/m.exec(text)?.[1];
}

/** The first HEAD_BYTES of a URL as text: a Range request, and the reading stops there if it is not honoured. */
async function headOfUrl(url: string): Promise<string> {
  const response = await fetch(url, { headers: { range: `bytes=0-${HEAD_BYTES - 1}` } });
  if (!response.ok || !response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < HEAD_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  void reader.cancel().catch(() => {});
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes.subarray(0, HEAD_BYTES));
}

/** Whether a URL of this host answers (HEAD). */
export async function urlExists(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { method: 'HEAD' })).ok;
  } catch {
    return false;
  }
}
