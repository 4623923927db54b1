// Minimal USDZ: an uncompressed ZIP holding one USDA layer whose data starts on a 64-byte boundary,
// as the USDZ specification requires (the padding goes into the local header's extra field).
import { buildMesh, buildZip, GENERATOR, type MeshOptions } from './outputs/index.ts';
import { bounds } from './outputs/mesh.ts';

const LAYER_NAME = 'model.usda';

export function buildUsdz(opts: MeshOptions): Buffer {
  return buildZip([{ name: LAYER_NAME, data: Buffer.from(usdaText(opts)) }], { method: 'store', align: 64 });
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

const round = (x: number) => String(Math.round(x * 1e6) / 1e6);
