// Minimal USDZ: an uncompressed ZIP holding one USDA layer (and its textures) whose data starts on a 64-byte
// boundary, as the USDZ specification requires (the padding goes into the local header's extra field).
import { buildMesh, buildZip, GENERATOR, type MeshOptions } from './outputs/index.ts';
import { bounds } from '../formats/glb.ts';
import type { MeshMaterial, PolygonMesh } from './outputs/polygon-mesh.ts';

const LAYER_NAME = 'model.usda';

export function buildUsdz(opts: MeshOptions): Buffer {
  return buildZip([{ name: LAYER_NAME, data: Buffer.from(usdaText(opts)) }], { method: 'store', align: 64 });
}

function usdaText(opts: MeshOptions): string {
  const mesh = buildMesh(opts);
  const faces = opts.quads ? mesh.quads : mesh.triangles;
  const size = opts.quads ? 4 : 3;
  return [
    ...meshPrimLines('    def Mesh "mesh"\n    {', mesh, new Array(faces.length / size).fill(size), faces),
    `        color3f[] primvars:displayColor = [(${mesh.color.map(round).join(', ')})]`,
    '        uniform token subdivisionScheme = "none"',
    '    }',
    '}',
    '',
  ].join('\n');
}

const round = (x: number) => String(Math.round(x * 1e6) / 1e6);

/** `a` read `n` numbers at a time as USDA tuples, "(x, y, z), …", each number through `map` first. */
function tuples(a: Float32Array, n: number, map: (v: number, k: number) => number = (v) => v): string {
  const out: string[] = [];
  for (let i = 0; i < a.length; i += n)
    out.push(`(${Array.from(a.subarray(i, i + n), (v, k) => round(map(v, k))).join(', ')})`);
  return out.join(', ');
}

/** The layer's header and the mesh prim opened by `meshLine`, up to its texture coordinates (the caller closes it). */
function meshPrimLines(
  meshLine: string,
  mesh: { positions: Float32Array; normals: Float32Array; uvs: Float32Array },
  counts: number[],
  indices: ArrayLike<number>,
): string[] {
  const { min, max } = bounds(mesh.positions);
  return [
    '#usda 1.0',
    `(\n    defaultPrim = "model"\n    metersPerUnit = 1\n    upAxis = "Y"\n    doc = "${GENERATOR}"\n)`,
    '',
    'def Xform "model" (\n    kind = "component"\n)\n{',
    meshLine,
    `        float3[] extent = [(${min.map(round).join(', ')}), (${max.map(round).join(', ')})]`,
    `        int[] faceVertexCounts = [${counts.join(', ')}]`,
    `        int[] faceVertexIndices = [${Array.from(indices).join(', ')}]`,
    `        point3f[] points = [${tuples(mesh.positions, 3)}]`,
    `        normal3f[] normals = [${tuples(mesh.normals, 3)}] (\n            interpolation = "vertex"\n        )`,
    // glTF texture coordinates grow downwards, USD ones upwards.
    `        texCoord2f[] primvars:st = [${tuples(mesh.uvs, 2, (v, k) => (k === 1 ? 1 - v : v))}] (\n            interpolation = "vertex"\n        )`,
  ];
}

/**
 * A polygon mesh (triangles and quads as they are) as USDZ, with a UsdPreviewSurface material: its base colour,
 * or the base-colour texture, and for PBR the roughness and metalness from the metallic-roughness texture and
 * the normal map. The textures are PNGs inside the package, after the layer (each 64-byte aligned as well).
 */
export function buildPolygonUsdz(mesh: PolygonMesh, material: MeshMaterial): Buffer {
  const files: { name: string; data: Buffer }[] = [];
  if (material.baseColor) files.push({ name: 'textures/base_color.png', data: material.baseColor });
  if (material.metallicRoughness)
    files.push({ name: 'textures/metallic_roughness.png', data: material.metallicRoughness });
  if (material.normal) files.push({ name: 'textures/normal.png', data: material.normal });
  return buildZip([{ name: LAYER_NAME, data: Buffer.from(polygonUsda(mesh, material)) }, ...files], {
    method: 'store',
    align: 64,
  });
}

function polygonUsda(mesh: PolygonMesh, material: MeshMaterial): string {
  const path = '/model/Materials/material';
  const texture = (name: string, file: string, colorSpace: 'sRGB' | 'raw', outputs: string, extra: string[] = []) => [
    `            def Shader "${name}"`,
    '            {',
    '                uniform token info:id = "UsdUVTexture"',
    `                asset inputs:file = @${file}@`,
    `                float2 inputs:st.connect = <${path}/st.outputs:result>`,
    `                token inputs:sourceColorSpace = "${colorSpace}"`,
    '                token inputs:wrapS = "clamp"',
    '                token inputs:wrapT = "clamp"',
    ...extra.map((line) => `                ${line}`),
    `                ${outputs}`,
    '            }',
  ];
  const surface = [
    material.baseColor
      ? `color3f inputs:diffuseColor.connect = <${path}/base_color.outputs:rgb>`
      : `color3f inputs:diffuseColor = (${material.color.map(round).join(', ')})`,
    material.metallicRoughness
      ? `float inputs:roughness.connect = <${path}/metallic_roughness.outputs:g>`
      : 'float inputs:roughness = 0.8',
    material.metallicRoughness
      ? `float inputs:metallic.connect = <${path}/metallic_roughness.outputs:b>`
      : 'float inputs:metallic = 0',
    ...(material.normal ? [`normal3f inputs:normal.connect = <${path}/normal.outputs:rgb>`] : []),
  ];
  const textured =
    material.baseColor !== undefined || material.metallicRoughness !== undefined || material.normal !== undefined;
  return [
    ...meshPrimLines(
      '    def Mesh "mesh" (\n        prepend apiSchemas = ["MaterialBindingAPI"]\n    )\n    {',
      mesh,
      Array.from(mesh.sizes),
      mesh.polygons,
    ),
    `        color3f[] primvars:displayColor = [(${material.color.map(round).join(', ')})]`,
    '        uniform token subdivisionScheme = "none"',
    `        rel material:binding = <${path}>`,
    '    }',
    '',
    '    def Scope "Materials"\n    {',
    '        def Material "material"\n        {',
    `            token outputs:surface.connect = <${path}/surface.outputs:surface>`,
    '',
    '            def Shader "surface"',
    '            {',
    '                uniform token info:id = "UsdPreviewSurface"',
    ...surface.map((line) => `                ${line}`),
    '                token outputs:surface',
    '            }',
    ...(textured
      ? [
          '',
          '            def Shader "st"',
          '            {',
          '                uniform token info:id = "UsdPrimvarReader_float2"',
          '                token inputs:varname = "st"',
          '                float2 outputs:result',
          '            }',
        ]
      : []),
    ...(material.baseColor
      ? ['', ...texture('base_color', 'textures/base_color.png', 'sRGB', 'float3 outputs:rgb')]
      : []),
    ...(material.metallicRoughness
      ? [
          '',
          ...texture(
            'metallic_roughness',
            'textures/metallic_roughness.png',
            'raw',
            'float outputs:g\n                float outputs:b',
          ),
        ]
      : []),
    ...(material.normal
      ? [
          '',
          ...texture('normal', 'textures/normal.png', 'raw', 'float3 outputs:rgb', [
            'float4 inputs:scale = (2, 2, 2, 1)',
            'float4 inputs:bias = (-1, -1, -1, 0)',
          ]),
        ]
      : []),
    '        }',
    '    }',
    '}',
    '',
  ].join('\n');
}
