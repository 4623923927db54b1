// A reader of binary FBX 7.x node records, for the export tests: what an importer such as Blender's walks
// (Objects, Connections), with each node's properties decoded.
import { inflateSync } from 'node:zlib';
import { expect } from 'vitest';

export interface FbxRecord {
  name: string;
  props: (number | bigint | string | boolean | Buffer | number[])[];
  children: FbxRecord[];
}

export function readFbxNodes(data: Buffer): FbxRecord[] {
  const version = data.readUInt32LE(23);
  const wide = version >= 7500;
  const nodes: FbxRecord[] = [];
  let offset = 27;
  for (;;) {
    const [node, next] = readNode(data, offset, wide);
    if (!node) break;
    nodes.push(node);
    offset = next;
  }
  return nodes;
}

function readNode(data: Buffer, at: number, wide: boolean): [FbxRecord | undefined, number] {
  const end = wide ? Number(data.readBigUInt64LE(at)) : data.readUInt32LE(at);
  const count = wide ? Number(data.readBigUInt64LE(at + 8)) : data.readUInt32LE(at + 4);
  const head = wide ? 25 : 13;
  const nameLength = data.readUInt8(at + head - 1);
  if (end === 0) return [undefined, at + head];
  const name = data.toString('latin1', at + head, at + head + nameLength);
  let p = at + head + nameLength;
  const props: FbxRecord['props'] = [];
  for (let i = 0; i < count; i++) {
    const type = String.fromCharCode(data[p]!);
    p += 1;
    if (type === 'C') props.push(data[p] !== 0), (p += 1);
    else if (type === 'Y') props.push(data.readInt16LE(p)), (p += 2);
    else if (type === 'I') props.push(data.readInt32LE(p)), (p += 4);
    else if (type === 'F') props.push(data.readFloatLE(p)), (p += 4);
    else if (type === 'D') props.push(data.readDoubleLE(p)), (p += 8);
    else if (type === 'L') props.push(data.readBigInt64LE(p)), (p += 8);
    else if (type === 'S' || type === 'R') {
      const length = data.readUInt32LE(p);
      const bytes = data.subarray(p + 4, p + 4 + length);
      props.push(type === 'S' ? bytes.toString('utf8') : Buffer.from(bytes));
      p += 4 + length;
    } else {
      const length = data.readUInt32LE(p);
      const encoding = data.readUInt32LE(p + 4);
      const size = data.readUInt32LE(p + 8);
      const raw = data.subarray(p + 12, p + 12 + size);
      const bytes = encoding === 1 ? inflateSync(raw) : raw;
      const width = type === 'd' || type === 'l' ? 8 : 4;
      const values: number[] = [];
      for (let k = 0; k < length; k++) {
        values.push(
          type === 'd'
            ? bytes.readDoubleLE(k * width)
            : type === 'f'
              ? bytes.readFloatLE(k * width)
              : type === 'l'
                ? Number(bytes.readBigInt64LE(k * width))
                : bytes.readInt32LE(k * width),
        );
      }
      props.push(values);
      p += 12 + size;
    }
  }
  const children: FbxRecord[] = [];
  while (p < end) {
    const [child, next] = readNode(data, p, wide);
    p = next;
    if (!child) break;
    children.push(child);
  }
  return [{ name, props, children }, end];
}

/** The first child named `name`. */
export const child = (node: FbxRecord | undefined, name: string) => node?.children.find((c) => c.name === name);

/** Blender's FBX importer's path to a texture: Material ←OP(DiffuseColor)– Texture ←OO– Video with Content; Material –OO→ Model. */
export function expectTexturedFbx(bytes: Buffer): FbxRecord[] {
  const nodes = readFbxNodes(bytes);
  const objects = nodes.find((n) => n.name === 'Objects')!;
  const idOf = (name: string) => child(objects, name)?.props[0] as bigint;
  const [model, material, texture, video] = ['Model', 'Material', 'Texture', 'Video'].map(idOf);
  expect([model, material, texture, video].every((id) => typeof id === 'bigint')).toBe(true);
  const content = child(child(objects, 'Video'), 'Content')!.props[0] as Buffer;
  expect(content.subarray(1, 4).toString()).toBe('PNG');
  const links = nodes.find((n) => n.name === 'Connections')!.children.map((c) => c.props.map(String).join(' '));
  expect(links).toEqual(
    expect.arrayContaining([
      `OO ${material} ${model}`,
      `OP ${texture} ${material} DiffuseColor`,
      `OO ${video} ${texture}`,
    ]),
  );
  return nodes;
}
