// The bone names of an FBX file, read from its bytes without loading it: the names of its `Model` objects
// of type `LimbNode` (`Limb` in FBX 6), in binary (7.x, 6.1) and ASCII files, whether a skin (a `Cluster`
// deformer) binds a mesh to them, and whether it has a mesh. Milliseconds even for a large file: the engine
// judges an animation upload with it as it arrives, the FBX check of the upload form before it is sent.
// Pure (Uint8Array, TextDecoder): no Node module, no DOM.
import { signatureOf } from './file-signature.ts';

export interface FbxBones {
  /** Bone names in file order (namespaces kept: `mixamorig:Hips`). */
  bones: string[];
  /** Does a skin cluster bind a mesh to bones? */
  skinned: boolean;
  /** Does it have a mesh (a `Geometry` of type `Mesh`)? */
  mesh: boolean;
}

const LIMB_TYPES = ['LimbNode', 'Limb'];

export function fbxBones(bytes: Uint8Array): FbxBones {
  return isBinaryFbx(bytes) ? binaryBones(bytes) : asciiBones(new TextDecoder().decode(bytes));
}

export function isBinaryFbx(head: Uint8Array): boolean {
  return signatureOf(head) === 'fbx';
}

/** The bones of one window of a file read in pieces (each overlapping the last by 1 KiB), in the file's format. */
export function fbxBonesOfPiece(piece: Uint8Array, binary: boolean): FbxBones {
  return binary ? binaryBones(piece) : asciiBones(new TextDecoder().decode(piece));
}

/** The bones of a file read in pieces, together. */
export function mergeBones(parts: FbxBones[]): FbxBones {
  return {
    bones: [...new Set(parts.flatMap((p) => p.bones))],
    skinned: parts.some((p) => p.skinned),
    mesh: parts.some((p) => p.mesh),
  };
}

function binaryBones(buf: Uint8Array): FbxBones {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const bones: string[] = [];
  for (const type of LIMB_TYPES) {
    // A string property of exactly this text: `Limb` also starts `LimbNode`, the length tells them apart.
    const record = stringRecord(type);
    for (let at = find(buf, record, 0); at >= 0; at = find(buf, record, at + record.length)) {
      const name = stringBefore(buf, view, at);
      if (name) bones.push(modelName(name));
    }
  }
  const text = (s: string) => find(buf, ascii(s), 0) >= 0;
  return {
    bones: [...new Set(bones)].filter(Boolean),
    skinned: find(buf, stringRecord('Cluster'), 0) >= 0,
    mesh: find(buf, stringRecord('Mesh'), 0) >= 0 && (text('Vertices') || text('PolygonVertexIndex')),
  };
}

/** The string record ('S', uint32 length, bytes) that ends right where `end` is, if there is one. */
function stringBefore(buf: Uint8Array, view: DataView, end: number): string | undefined {
  for (let n = 1; n <= 512 && end - n - 5 >= 0; n++) {
    if (buf[end - n - 5] === 0x53 && view.getUint32(end - n - 4, true) === n)
      return new TextDecoder().decode(buf.subarray(end - n, end));
  }
  return undefined;
}

/** `Hips\0\x01Model` (FBX 7) or `Model::Hips` (FBX 6) → `Hips`. */
function modelName(raw: string): string {
  const sep = raw.indexOf('\u0000\u0001');
  if (sep >= 0) return raw.slice(0, sep);
  return raw.startsWith('Model::') ? raw.slice('Model::'.length) : raw;
}

function stringRecord(text: string): Uint8Array {
  const out = new Uint8Array(5 + text.length);
  out[0] = 0x53; // 'S'
  new DataView(out.buffer).setUint32(1, text.length, true);
  out.set(ascii(text), 5);
  return out;
}

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** Index of `pattern` in `buf` from `from`, or -1. */
function find(buf: Uint8Array, pattern: Uint8Array, from: number): number {
  const first = pattern[0]!;
  for (
    let at = buf.indexOf(first, from);
    at >= 0 && at + pattern.length <= buf.length;
    at = buf.indexOf(first, at + 1)
  ) {
    let k = 1;
    while (k < pattern.length && buf[at + k] === pattern[k]) k++;
    if (k === pattern.length) return at;
  }
  return -1;
}

function asciiBones(text: string): FbxBones {
  const bones: string[] = [];
  const model = /Model:\s*(?:-?\d+,\s*)?"Model::([^"]*)",\s*"(LimbNode|Limb)"/g;
  for (let m = model.exec(text); m; m = model.exec(text)) bones.push(m[1]!);
  return {
    bones: [...new Set(bones)],
    skinned: /"Cluster"/.test(text),
    mesh:
      /Geometry:\s*(?:-?\d+,\s*)?"Geometry::[^"]*",\s*"Mesh"/.test(text) ||
      /Model:\s*(?:-?\d+,\s*)?"Model::[^"]*",\s*"Mesh"/.test(text),
  };
}
