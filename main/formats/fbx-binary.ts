// The binary FBX container (7.4/7.5): node records with typed properties, arrays zlib-compressed, the header
// and the footer Blender and the FBX SDK check. The documents are made by fbx.ts (a static mesh) and
// fbx-skinned.ts (a skinned character with its takes).
import { deflateSync } from 'node:zlib';
import { FBX_BINARY_MAGIC } from '../../shared/file-signature.ts';

export interface FbxNode {
  name: string;
  props: Buffer[];
  children: FbxNode[];
}

const MAGIC = Buffer.from(FBX_BINARY_MAGIC);
const NULL_RECORD = Buffer.alloc(13);
// FileId, CreationTime and the footer id must agree; these are the fixed values Blender writes.
export const FILE_ID = Buffer.from('28b32aebb624ccc2bfc8b02aa92bfcf1', 'hex');
export const CREATION_TIME = '1970-01-01 10:00:00:000';
const FOOTER_ID = Buffer.from('fabcab09d0c8d466b176fb831cf7267e', 'hex');
const FOOTER_MAGIC = Buffer.from('f85a8c6adef5d97eece90ce3758f290b', 'hex');

/** The file of these top-level nodes (32-bit offsets: versions below 7500). */
export function fbxFile(root: FbxNode[], version: number): Buffer {
  const parts: Buffer[] = [MAGIC, u32(version)];
  let offset = MAGIC.length + 4;
  for (const n of root) {
    const bytes = encodeNode(n, offset);
    parts.push(bytes);
    offset += bytes.length;
  }
  parts.push(NULL_RECORD, FOOTER_ID, Buffer.alloc(4));
  offset += NULL_RECORD.length + FOOTER_ID.length + 4;
  parts.push(Buffer.alloc(16 - (offset % 16)), u32(version), Buffer.alloc(120), FOOTER_MAGIC); // pad 1..16 bytes
  return Buffer.concat(parts);
}

/** A node record whose end offset is absolute, so it needs the offset where it starts. */
function encodeNode(n: FbxNode, start: number): Buffer {
  const name = Buffer.from(n.name, 'latin1');
  const props = Buffer.concat(n.props);
  const body: Buffer[] = [];
  let offset = start + 13 + name.length + props.length;
  for (const child of n.children) {
    const bytes = encodeNode(child, offset);
    body.push(bytes);
    offset += bytes.length;
  }
  // A nested list ends with a null record; so does a node with neither properties nor children.
  if (n.children.length > 0 || n.props.length === 0) {
    body.push(NULL_RECORD);
    offset += NULL_RECORD.length;
  }
  const head = Buffer.alloc(13);
  head.writeUInt32LE(offset, 0);
  head.writeUInt32LE(n.props.length, 4);
  head.writeUInt32LE(props.length, 8);
  head.writeUInt8(name.length, 12);
  return Buffer.concat([head, name, props, ...body]);
}

export function node(name: string, props: Buffer[], children: FbxNode[] = []): FbxNode {
  return { name, props, children };
}

/** An object's Properties70 record, holding its P entries (`property`, or P nodes of more values). */
export function properties70(entries: FbxNode[]): FbxNode {
  return node('Properties70', [], entries);
}

/** A Properties70 entry: P: "name", "type", "label", "", value. */
export function property(name: string, type: string, label: string, value: Buffer): FbxNode {
  return node('P', [string(name), string(type), string(label), string(''), value]);
}

/**
 * A layer element's data: by default per vertex (control points map one-to-one to our vertices); `mapping` and
 * `reference` say otherwise (a material index per polygon, one for all).
 */
export function layerElement(
  name: string,
  dataName: string,
  data: Buffer,
  mapping = 'ByVertice',
  reference = 'Direct',
): FbxNode {
  return node(
    name,
    [int32(0)],
    [
      node('Version', [int32(101)]),
      node('Name', [string('')]),
      node('MappingInformationType', [string(mapping)]),
      node('ReferenceInformationType', [string(reference)]),
      node(dataName, [data]),
    ],
  );
}

// ---- property records: a type code followed by the value --------------------------------------

function typed(code: string, value: Buffer): Buffer {
  return Buffer.concat([Buffer.from(code, 'latin1'), value]);
}

export const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
};
export const bool = (v: boolean) => typed('C', Buffer.from([v ? 1 : 0]));
export const int32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32LE(v);
  return typed('I', b);
};
export const int64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(v);
  return typed('L', b);
};
export const float64 = (v: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(v);
  return typed('D', b);
};
export const string = (v: string) => {
  const bytes = Buffer.from(v, 'utf8');
  return typed('S', Buffer.concat([u32(bytes.length), bytes]));
};
export const raw = (v: Buffer) => typed('R', Buffer.concat([u32(v.length), v]));

/** Arrays are stored zlib-compressed (encoding 1): length, encoding, compressed size, data. */
function array(code: string, values: Float64Array | Float32Array | Int32Array | BigInt64Array): Buffer {
  const data = deflateSync(Buffer.from(values.buffer, values.byteOffset, values.byteLength));
  return typed(code, Buffer.concat([u32(values.length), u32(1), u32(data.length), data]));
}
export const float64Array = (v: ArrayLike<number>) => array('d', Float64Array.from(v));
export const float32Array = (v: ArrayLike<number>) => array('f', Float32Array.from(v));
export const int32Array = (v: ArrayLike<number>) => array('i', Int32Array.from(v));
export const int64Array = (v: ArrayLike<bigint>) => array('l', BigInt64Array.from(v));
