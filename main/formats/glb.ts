// glTF 2.0 binary (GLB) written from plain glTF JSON: the BIN chunk under construction (each bufferView on a
// 4-byte boundary), accessors of typed arrays, linear animation channels, and the container. The engine's GLB
// writers (main/engine/outputs/) and the skinned-character writer (skinned-glb.ts) build on it.
import type { V3 } from './rig-math.ts';

const MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
/** glTF's numbers for buffer targets and component types (WebGL's enums). */
export const GL = {
  ARRAY_BUFFER: 34962,
  ELEMENT_ARRAY_BUFFER: 34963,
  FLOAT: 5126,
  UNSIGNED_BYTE: 5121,
  UNSIGNED_SHORT: 5123,
  UNSIGNED_INT: 5125,
  LINEAR: 9729,
  LINEAR_MIPMAP_LINEAR: 9987,
  CLAMP_TO_EDGE: 33071,
} as const;

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 } as const;

/**
 * The accessor of `data` written into `bin` as a bufferView of `target` (none for animation keys and matrices):
 * its component type from the array's, its count in elements of `type`, and `minMax` when given.
 */
export function dataAccessor(
  bin: BinaryBody,
  data: Float32Array | Uint32Array | Uint16Array | Uint8Array,
  type: keyof typeof COMPONENTS,
  target?: number,
  minMax?: { min: number[]; max: number[] },
): Record<string, unknown> {
  return {
    bufferView: bin.add(data, target),
    componentType: componentTypeOf(data),
    count: data.length / COMPONENTS[type],
    type,
    ...minMax,
  };
}

function componentTypeOf(data: Float32Array | Uint32Array | Uint16Array | Uint8Array): number {
  if (data instanceof Float32Array) return GL.FLOAT;
  if (data instanceof Uint32Array) return GL.UNSIGNED_INT;
  return data instanceof Uint16Array ? GL.UNSIGNED_SHORT : GL.UNSIGNED_BYTE;
}

/** An animation's samplers and channels under construction: `key` drives a node's property by `output` over `input`. */
export function linearChannels(): {
  samplers: object[];
  channels: object[];
  key(input: number, output: number, node: number, path: 'rotation' | 'translation'): void;
} {
  const samplers: object[] = [];
  const channels: object[] = [];
  return {
    samplers,
    channels,
    key(input, output, node, path) {
      channels.push({ sampler: samplers.push({ input, output, interpolation: 'LINEAR' }) - 1, target: { node, path } });
    },
  };
}

/** The GLB of `gltf`, its asset written by `generator`, with `accessors` and the bufferViews and buffer of `bin`. */
export function writeGlb(gltf: object, accessors: object[], bin: BinaryBody, generator: string): Buffer {
  const json = {
    asset: { version: '2.0', generator },
    ...gltf,
    accessors,
    bufferViews: bin.views,
    buffers: [{ byteLength: bin.length }],
  };
  return glbContainer(Buffer.from(JSON.stringify(json)), bin.concat());
}

/** The smallest and largest x, y and z of xyz triples (a POSITION accessor's min and max). */
export function bounds(positions: ArrayLike<number>): { min: V3; max: V3 } {
  const min: V3 = [Infinity, Infinity, Infinity];
  const max: V3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    const k = i % 3;
    min[k] = Math.min(min[k]!, positions[i]!);
    max[k] = Math.max(max[k]!, positions[i]!);
  }
  return { min, max };
}

/** The BIN chunk under construction: each bufferView starts on a 4-byte boundary. */
export class BinaryBody {
  readonly views: { buffer: 0; byteOffset: number; byteLength: number; target?: number }[] = [];
  private readonly parts: Buffer[] = [];
  length = 0;

  add(data: ArrayBufferView, target?: number): number {
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    this.views.push({ buffer: 0, byteOffset: this.length, byteLength: bytes.length, ...(target ? { target } : {}) });
    this.parts.push(bytes, Buffer.alloc(pad4(bytes.length)));
    this.length += bytes.length + pad4(bytes.length);
    return this.views.length - 1;
  }

  concat(): Buffer {
    return Buffer.concat(this.parts, this.length);
  }
}

export function glbContainer(json: Buffer, bin: Buffer): Buffer {
  const jsonChunk = Buffer.concat([json, Buffer.alloc(pad4(json.length), 0x20)]); // JSON pads with spaces
  const total = 12 + 8 + jsonChunk.length + 8 + bin.length;
  const head = Buffer.alloc(20);
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(2, 4);
  head.writeUInt32LE(total, 8);
  head.writeUInt32LE(jsonChunk.length, 12);
  head.writeUInt32LE(CHUNK_JSON, 16);
  const binHead = Buffer.alloc(8);
  binHead.writeUInt32LE(bin.length, 0);
  binHead.writeUInt32LE(CHUNK_BIN, 4);
  return Buffer.concat([head, jsonChunk, binHead, bin], total);
}

/** Parses the JSON chunk of a GLB after checking its header; throws on anything malformed. */
export function readGlbJson(buf: Uint8Array): unknown {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < 20 || b.readUInt32LE(0) !== MAGIC) throw new Error('not a GLB file');
  if (b.readUInt32LE(4) !== 2) throw new Error(`unsupported GLB version ${b.readUInt32LE(4)}`);
  if (b.readUInt32LE(8) !== b.length)
    throw new Error(`GLB length ${b.readUInt32LE(8)} does not match ${b.length} bytes`);
  const jsonLength = b.readUInt32LE(12);
  if (b.readUInt32LE(16) !== CHUNK_JSON || 20 + jsonLength > b.length) throw new Error('GLB has no valid JSON chunk');
  return JSON.parse(b.toString('utf8', 20, 20 + jsonLength));
}

const pad4 = (n: number) => (4 - (n % 4)) % 4;
