// The FBX files inside a picked zip, read in the page (nothing is uploaded): the zip's central directory, then
// each `.fbx` entry's bytes, stored or deflated (the browser's DecompressionStream). For the FBX check.

export interface ZipFbx {
  name: string;
  bytes: Uint8Array;
}

const MAX_ENTRY_BYTES = 256 * 2 ** 20;

export async function fbxFilesOfZip(file: Blob): Promise<ZipFbx[]> {
  const buf = new Uint8Array(await file.arrayBuffer());
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  // The end of central directory record: signature 0x06054b50 within the last 64 KiB + 22 bytes.
  let end = -1;
  for (let at = buf.length - 22; at >= Math.max(0, buf.length - 22 - 65535); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error('it is not a complete zip archive');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const out: ZipFbx[] = [];
  for (let i = 0; i < count && at + 46 <= buf.length; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) break;
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(buf.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extra + comment;
    if (!/\.fbx$/i.test(name) || name.startsWith('__MACOSX/') || size > MAX_ENTRY_BYTES) continue;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = buf.subarray(start, start + compressed);
    if (method === 0) out.push({ name, bytes: data });
    else if (method === 8) out.push({ name, bytes: await inflate(data) });
  }
  return out;
}

async function inflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([new Uint8Array(data)]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
