// The FBX files inside a picked zip, read in the page (nothing is uploaded): each `.fbx` entry's bytes, stored
// or deflated (./zip-archive.ts reads the zip). For the FBX check.
import { listEntries, readable, readEntry } from './zip-archive.ts';

export interface ZipFbx {
  name: string;
  bytes: Uint8Array;
}

const MAX_ENTRY_BYTES = 256 * 2 ** 20;

/** The zip's FBX files that can be checked: not macOS's resource forks, not larger than 256 MiB. */
export async function fbxFilesOfZip(file: Blob): Promise<ZipFbx[]> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const fbx = listEntries(bytes).filter(
    (e) => /\.fbx$/i.test(e.name) && !e.name.startsWith('__MACOSX/') && e.size <= MAX_ENTRY_BYTES && readable(e),
  );
  return Promise.all(fbx.map(async (e) => ({ name: e.name, bytes: await readEntry(bytes, e) })));
}
