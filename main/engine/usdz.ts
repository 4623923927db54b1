// Minimal USDZ: an uncompressed ZIP holding one USDA layer whose data starts on a 64-byte boundary,
// as the USDZ specification requires (the padding goes into the local header's extra field).
import { crc32 } from 'node:zlib';
import { buildMesh, GENERATOR, type MeshOptions } from './outputs/index.ts';
import { bounds } from './outputs/mesh.ts';

const ALIGNMENT = 64;
const PADDING_EXTRA_ID = 0x1986; // the id Pixar's usdzip uses for alignment padding
const LAYER_NAME = 'model.usda';

export function buildUsdz(opts: MeshOptions): Buffer {
  return storedZip(LAYER_NAME, Buffer.from(usdaText(opts)));
}

function usdaText(opts: MeshOptions): string {
  const mesh = buildMesh(opts);
  const faces = opts.quads ? mesh.quads : mesh.triangles;
  const size = opts.quads ? 4 : 3;
  const { min, max } = bounds(mesh.positions);
  const tuples = (a: Float32Array, n: number, map: (v: number, k: number) => number = (v) => v) => {
    const out: string[] = [];
    for (let i = 0; i < a.length; i += n) out.push(`(${Array.from(a.subarray(i, i + n), (v, k) => round(map(v, k))).join(', ')})`);
    return out.join(', ');
  };
  return [
    '#usda 1.0',
    `(\n    defaultPrim = "model"\n    metersPerUnit = 1\n    upAxis = "Y"\n    doc = "${GENERATOR}"\n)`,
    '',
    'def Xform "model" (\n    kind = "component"\n)\n{',
    '    def Mesh "mesh"\n    {',
    `        float3[] extent = [(${min.map(round).join(', ')}), (${max.map(round).join(', ')})]`,
    `        int[] faceVertexCounts = [${new Array(faces.length / size).fill(size).join(', ')}]`,
    `        int[] faceVertexIndices = [${faces.join(', ')}]`,
    `        point3f[] points = [${tuples(mesh.positions, 3)}]`,
    `        normal3f[] normals = [${tuples(mesh.normals, 3)}] (\n            interpolation = "vertex"\n        )`,
    // glTF texture coordinates grow downwards, USD ones upwards.
    `        texCoord2f[] primvars:st = [${tuples(mesh.uvs, 2, (v, k) => (k === 1 ? 1 - v : v))}] (\n            interpolation = "vertex"\n        )`,
    `        color3f[] primvars:displayColor = [(${mesh.color.map(round).join(', ')})]`,
    '        uniform token subdivisionScheme = "none"',
    '    }',
    '}',
    '',
  ].join('\n');
}

function storedZip(name: string, data: Buffer): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const fixed = 30 + nameBytes.length + 4; // local header, name, extra field header
  const pad = (ALIGNMENT - (fixed % ALIGNMENT)) % ALIGNMENT;
  const extra = Buffer.alloc(4 + pad);
  extra.writeUInt16LE(PADDING_EXTRA_ID, 0);
  extra.writeUInt16LE(pad, 2);

  const common = Buffer.alloc(26); // from "version needed" to "extra field length"
  common.writeUInt16LE(10, 0); // version 1.0: stored
  common.writeUInt16LE(0, 2); // flags
  common.writeUInt16LE(0, 4); // method: stored
  common.writeUInt16LE(0, 6); // time
  common.writeUInt16LE(0x21, 8); // date 1980-01-01
  common.writeUInt32LE(crc32(data), 10);
  common.writeUInt32LE(data.length, 14);
  common.writeUInt32LE(data.length, 18);
  common.writeUInt16LE(nameBytes.length, 22);

  const localCommon = Buffer.from(common);
  localCommon.writeUInt16LE(extra.length, 24);
  const local = Buffer.concat([u32(0x04034b50), localCommon, nameBytes, extra, data]);
  const central = Buffer.concat([u32(0x02014b50), u16(10), common, Buffer.alloc(10), u32(0), nameBytes]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(local.length, 16);
  return Buffer.concat([local, central, end]);
}

const round = (x: number) => String(Math.round(x * 1e6) / 1e6);

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}
