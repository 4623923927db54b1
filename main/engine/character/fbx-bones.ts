// The bone names of an FBX file, read from its bytes without loading it: the names of its `Model` objects
// of type `LimbNode` (`Limb` in FBX 6), in binary (7.x, 6.1) and ASCII files, and whether a skin (a `Cluster`
// deformer) binds a mesh to them. Milliseconds even for a large file, so an upload is judged as it arrives.

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
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buf.subarray(0, 18).toString('latin1') === 'Kaydara FBX Binary' ? binaryBones(buf) : asciiBones(buf.toString('utf8'));
}

function binaryBones(buf: Buffer): FbxBones {
  const bones: string[] = [];
  for (const type of LIMB_TYPES) {
    const record = Buffer.concat([Buffer.from('S', 'latin1'), u32(type.length), Buffer.from(type, 'latin1')]);
    for (let at = buf.indexOf(record); at >= 0; at = buf.indexOf(record, at + record.length)) {
      // `Limb` also starts `LimbNode`: take it only when the string is exactly `Limb`.
      const name = stringBefore(buf, at);
      if (name !== undefined) bones.push(modelName(name));
    }
  }
  return { bones: [...new Set(bones)].filter(Boolean), skinned: has(buf, 'Cluster'), mesh: has(buf, 'Mesh') && (buf.includes('Vertices') || buf.includes('PolygonVertexIndex')) };
}

/** The string record ('S', uint32 length, bytes) that ends right where `end` is, if there is one. */
function stringBefore(buf: Buffer, end: number): string | undefined {
  for (let n = 1; n <= 512 && end - n - 5 >= 0; n++) {
    if (buf[end - n - 5] === 0x53 && buf.readUInt32LE(end - n - 4) === n) return buf.toString('utf8', end - n, end);
  }
  return undefined;
}

/** `Hips\0\x01Model` (FBX 7) or `Model::Hips` (FBX 6) → `Hips`. */
function modelName(raw: string): string {
  const sep = raw.indexOf('\u0000\u0001');
  if (sep >= 0) return raw.slice(0, sep);
  return raw.startsWith('Model::') ? raw.slice('Model::'.length) : raw;
}

/** A string property with exactly this text ('S', its length, the text). */
function has(buf: Buffer, text: string): boolean {
  return buf.includes(Buffer.concat([Buffer.from('S', 'latin1'), u32(text.length), Buffer.from(text, 'latin1')]));
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

function asciiBones(text: string): FbxBones {
  const bones: string[] = [];
  const model = /Model:\s*(?:-?\d+,\s*)?"Model::([^"]*)",\s*"(LimbNode|Limb)"/g;
  for (let m = model.exec(text); m; m = model.exec(text)) bones.push(m[1]!);
  return {
    bones: [...new Set(bones)],
    skinned: /"Cluster"/.test(text),
    mesh: /Geometry:\s*(?:-?\d+,\s*)?"Geometry::[^"]*",\s*"Mesh"/.test(text) || /Model:\s*(?:-?\d+,\s*)?"Model::[^"]*",\s*"Mesh"/.test(text),
  };
}
