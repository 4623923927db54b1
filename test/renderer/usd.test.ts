// The viewer's built-in USD reader (renderer/viewer/usd/), in plain Node: the USDZ archive reader on the
// engine's own USDZ bytes (main/engine/usdz.ts) and on deflated archives, the USDA parser and the mesh
// extraction on hand-written layers (nested transforms, Z up, units, faceVarying normals, n-gons, colours,
// materials), and the clear errors for a binary USDC layer and other unreadable files.
import { describe, expect, it } from 'vitest';
import { buildMesh, buildZip } from '../../main/engine/outputs/index.ts';
import { buildUsdz } from '../../main/engine/usdz.ts';
import { readUsdScene } from '../../renderer/viewer/usd/usd-file.ts';
import { meshesOf, type UsdMesh } from '../../renderer/viewer/usd/usd-meshes.ts';
import { layerText, parseUsda, USDC_FILE, USDC_IN_USDZ } from '../../renderer/viewer/usd/usda-parse.ts';
import { rootLayer } from '../../renderer/viewer/usd/usdz-archive.ts';
import { isZip, listEntries, readEntry } from '../../renderer/viewer/zip-archive.ts';

const bytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
const text = (s: string) => new TextEncoder().encode(s);
const usda = (body: string, meta = '') => `#usda 1.0\n(\n${meta}\n)\n${body}\n`;
const meshes = (layer: string) => meshesOf(parseUsda(layer)).meshes;
const triangleCount = (m: UsdMesh) => m.indices.length / 3;
const vertexCount = (m: UsdMesh) => m.positions.length / 3;
const point = (m: UsdMesh, i: number) => [...m.positions.subarray(i * 3, i * 3 + 3)];

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, digits = 4) {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < actual.length; i++) expect(actual[i], `element ${i}`).toBeCloseTo(expected[i]!, digits);
}

// A unit cube's corners and its six quads, wound counter-clockwise seen from outside.
const CUBE_POINTS =
  '[(-0.5, -0.5, 0.5), (0.5, -0.5, 0.5), (-0.5, 0.5, 0.5), (0.5, 0.5, 0.5), (-0.5, 0.5, -0.5), (0.5, 0.5, -0.5), (-0.5, -0.5, -0.5), (0.5, -0.5, -0.5)]';
const CUBE_FACES =
  'int[] faceVertexCounts = [4, 4, 4, 4, 4, 4]\n int[] faceVertexIndices = [0, 1, 3, 2, 2, 3, 5, 4, 4, 5, 7, 6, 6, 7, 1, 0, 1, 7, 5, 3, 6, 0, 2, 4]';

describe('USDZ archive', () => {
  it("reads the engine's USDZ: one stored, 64-byte aligned USDA layer", async () => {
    const zip = bytes(buildUsdz({ seed: 'archive', targetFaces: 100 }));
    expect(isZip(zip)).toBe(true);
    const entries = listEntries(zip);
    expect(entries.map((e) => [e.name, e.method])).toEqual([['model.usda', 0]]);
    expect(entries[0]!.offset % 64).toBe(0);
    const data = await readEntry(zip, entries[0]!);
    expect(data.length).toBe(entries[0]!.size);
    expect(new TextDecoder().decode(data.subarray(0, 9))).toBe('#usda 1.0');
  });

  it('inflates deflated entries and takes the first USD file as the root layer', async () => {
    const layer = usda(`def Mesh "m" { point3f[] points = ${CUBE_POINTS}\n ${CUBE_FACES} }`, 'metersPerUnit = 1');
    const zip = bytes(
      buildZip([
        { name: 'readme.txt', data: Buffer.from('hello '.repeat(100)) },
        { name: 'scene.usda', data: Buffer.from(layer) },
        { name: 'other.usda', data: Buffer.from('#usda 1.0\n') },
      ]),
    );
    expect(listEntries(zip).map((e) => e.method)).toEqual([8, 8, 8]);
    const root = await rootLayer(zip);
    expect(root.name).toBe('scene.usda');
    expect(new TextDecoder().decode(root.data)).toBe(layer);
    const scene = await readUsdScene(zip);
    expect(scene.meshes).toHaveLength(1);
    expect(triangleCount(scene.meshes[0]!)).toBe(12);
  });

  it('says what is wrong with a cut archive or one without a USD layer', async () => {
    const zip = bytes(buildUsdz({ seed: 'cut', targetFaces: 50 }));
    await expect(rootLayer(zip.subarray(0, zip.length - 30))).rejects.toThrow(
      /not a USDZ package|USDZ package is damaged/,
    );
    const noLayer = bytes(buildZip([{ name: 'texture.png', data: Buffer.from([1, 2, 3]) }], { method: 'store' }));
    await expect(readUsdScene(noLayer)).rejects.toThrow(
      'This USDZ package holds no USD layer (.usda, .usdc or .usd); it holds texture.png.',
    );
  });
});

describe('USD from the engine', () => {
  it.each([false, true])('matches the mesh it was written from (quads: %s)', async (quads) => {
    const opts = { seed: 'usd-engine', targetFaces: 300, quads };
    const mesh = buildMesh(opts);
    const scene = await readUsdScene(bytes(buildUsdz(opts)));
    expect(scene.upAxis).toBe('Y');
    expect(scene.metersPerUnit).toBe(1);
    expect(scene.meshes).toHaveLength(1);
    const m = scene.meshes[0]!;
    expect(m.path).toBe('/model/mesh');
    expect(vertexCount(m)).toBe(mesh.positions.length / 3);
    expect(triangleCount(m)).toBe(mesh.triangles.length / 3);
    if (!quads) expect([...m.indices]).toEqual([...mesh.triangles]);
    expectClose(m.positions, mesh.positions);
    expectClose(m.normals, mesh.normals, 3);
    // st was written with v flipped (USD's v grows upwards): read back in the glTF convention.
    expectClose(m.uvs!, mesh.uvs);
    expectClose(m.look.color, mesh.color);
    expect(m.colors).toBeUndefined();
  });
});

describe('USDA parser', () => {
  it('reads layer metadata, nesting, attributes with metadata, time samples, connections and relationships', () => {
    const layer = parseUsda(`#usda 1.0
(
    "A doc string"
    defaultPrim = "root"
    metersPerUnit = 0.5
    upAxis = "Z"
    customLayerData = { string creator = "hand" dictionary nested = { int a = 1 } }
)

# a comment
def Xform "root" (
    kind = "component"
    prepend apiSchemas = ["MaterialBindingAPI"]
)
{
    float3 xformOp:translate.timeSamples = { 10: (1, 2, 3), 0: (4, 5, 6) }
    uniform token[] xformOpOrder = ["xformOp:translate"]
    rel material:binding = </root/mat>
    custom string note = "braces { } and \\"quotes\\" inside"
    variantSet "look" = { "red" { def Mesh "ignored" {} } }
    def Scope "child" { }
    def Material "mat" {
        token outputs:surface.connect = </root/mat/surface.outputs:surface>
    }
}
over "elsewhere" { }
`);
    expect(layer.metadata).toMatchObject({ doc: 'A doc string', defaultPrim: 'root', metersPerUnit: 0.5, upAxis: 'Z' });
    expect(layer.prims.map((p) => `${p.specifier} ${p.name}`)).toEqual(['def root', 'over elsewhere']);
    const root = layer.prims[0]!;
    expect(root.metadata.kind).toBe('component');
    expect(root.attributes.get('xformOp:translate')!.value).toEqual([4, 5, 6]); // the earliest sample
    expect(root.attributes.get('xformOpOrder')).toMatchObject({
      uniform: true,
      typeName: 'token[]',
      value: ['xformOp:translate'],
    });
    expect(root.attributes.get('note')!.value).toBe('braces { } and "quotes" inside');
    expect(root.relationships.get('material:binding')).toEqual(['/root/mat']);
    expect(root.children.map((c) => `${c.type} ${c.path}`)).toEqual(['Scope /root/child', 'Material /root/mat']);
    expect(root.children[1]!.attributes.get('outputs:surface')!.connect).toBe('/root/mat/surface.outputs:surface');
  });

  it('fails with the line of a syntax error', () => {
    expect(() => parseUsda('#usda 1.0\ndef Mesh "m" {\n  point3f[] points = [(1, 2, 3)\n}\n')).toThrow(
      /could not be read: .*\(line 4\)/,
    );
    expect(() => parseUsda('#usda 1.0\ndef Mesh "m" {\n')).toThrow(/not closed/);
  });
});

describe('USD meshes', () => {
  it('composes nested transforms: translate, scale, rotateXYZ, orient, matrix4d, !invert! and !resetXformStack!', () => {
    const cube = `point3f[] points = ${CUBE_POINTS}\n ${CUBE_FACES}`;
    const result = meshes(
      usda(
        `
def Xform "a" {
    double3 xformOp:translate = (10, 0, 0)
    float3 xformOp:scale = (2, 2, 2)
    uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:scale"]
    def Xform "b" {
        float3 xformOp:rotateXYZ = (0, 0, 90)
        uniform token[] xformOpOrder = ["xformOp:rotateXYZ"]
        def Mesh "rotated" { ${cube} }
    }
    def Mesh "oriented" {
        quatf xformOp:orient = (0.7071068, 0, 0.7071068, 0)
        uniform token[] xformOpOrder = ["xformOp:orient"]
        ${cube}
    }
    def Mesh "matrix" {
        matrix4d xformOp:transform = ( (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 5, 0, 1) )
        double3 xformOp:translate:pivot = (1, 0, 0)
        uniform token[] xformOpOrder = ["xformOp:transform", "xformOp:translate:pivot", "!invert!xformOp:translate:pivot"]
        ${cube}
    }
    def Mesh "reset" {
        double3 xformOp:translate = (0, 0, 7)
        uniform token[] xformOpOrder = ["!resetXformStack!", "xformOp:translate"]
        ${cube}
    }
}`,
        'metersPerUnit = 1',
      ),
    );
    const byName = Object.fromEntries(result.map((m) => [m.name, m]));
    // Point 1 is (0.5, -0.5, 0.5). Rotated 90° about Z: (0.5, 0.5, 0.5); then ×2 and +10 on x.
    expectClose(point(byName.rotated!, 1), [11, 1, 1]);
    // Rotated 90° about Y (x → -z, z → x): (0.5, -0.5, -0.5); ×2, +10.
    expectClose(point(byName.oriented!, 1), [11, -1, -1]);
    // Moved 5 up by the matrix (the pivot and its inverse cancel); ×2, +10.
    expectClose(point(byName.matrix!, 1), [11, 9, 1]);
    // The parents' transforms are dropped.
    expectClose(point(byName.reset!, 1), [0.5, -0.5, 7.5]);
    for (const m of result) expect(triangleCount(m)).toBe(12);
  });

  it('turns a Z-up stage Y up and applies metersPerUnit (centimetres when unset)', () => {
    const mesh =
      'def Mesh "m" { point3f[] points = [(0, 0, 0), (100, 0, 0), (0, 0, 100)]\n int[] faceVertexCounts = [3]\n int[] faceVertexIndices = [0, 1, 2] }';
    const [zUp] = meshes(usda(mesh, 'upAxis = "Z"\n metersPerUnit = 0.01'));
    expectClose(zUp!.positions, [0, 0, 0, 1, 0, 0, 0, 1, 0]);
    // The triangle faces -Y in Z-up terms (x × z); Y up, that is +Z.
    expectClose(zUp!.normals.subarray(0, 3), [0, 0, 1]);
    const [unset] = meshes(usda(mesh));
    expectClose(unset!.positions, [0, 0, 0, 1, 0, 0, 0, 0, 1]);
  });

  it('triangulates a quad and a pentagon as fans, with faceVarying normals and uniform colours', () => {
    const [m] = meshes(
      usda(
        `def Mesh "m" {
    point3f[] points = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (2, 0, 0), (3, 0, 0), (3, 1, 0), (2.5, 2, 0), (2, 1, 0)]
    int[] faceVertexCounts = [4, 5]
    int[] faceVertexIndices = [0, 1, 2, 3, 4, 5, 6, 7, 8]
    normal3f[] normals = [(0, 0, 1), (0, 0, 1), (0, 0, 1), (0, 0, 1), (0, 0, 2), (0, 0, 2), (0, 0, 2), (0, 0, 2), (0, 0, 2)] (
        interpolation = "faceVarying"
    )
    color3f[] primvars:displayColor = [(1, 0, 0), (0, 0, 1)] (
        interpolation = "uniform"
    )
    texCoord2f[] primvars:st = [(0, 0), (1, 1)] (
        interpolation = "faceVarying"
    )
    int[] primvars:st:indices = [0, 0, 1, 1, 0, 0, 0, 0, 1]
}`,
        'metersPerUnit = 1',
      ),
    );
    expect(triangleCount(m!)).toBe(2 + 3);
    expect(vertexCount(m!)).toBe(9); // one vertex per corner
    expect([...m!.indices]).toEqual([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7, 4, 7, 8]);
    expectClose(m!.normals, new Array(9).fill([0, 0, 1]).flat());
    expectClose(m!.colors!.subarray(0, 4), [1, 0, 0, 1]);
    expectClose(m!.colors!.subarray(8 * 4, 9 * 4), [0, 0, 1, 1]);
    expect(m!.look.color).toEqual([1, 1, 1]); // the vertex colours carry it
    expectClose(m!.uvs!.subarray(0, 6), [0, 1, 0, 1, 1, 0]); // v flipped
  });

  it('flips the winding of a leftHanded mesh and of a mirrored one, and computes missing normals', () => {
    const tri = (extra: string) =>
      `point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]\n int[] faceVertexCounts = [3]\n int[] faceVertexIndices = [0, 1, 2]\n ${extra}`;
    const result = meshes(
      usda(
        `def Mesh "plain" { ${tri('')} }
def Mesh "left" { ${tri('uniform token orientation = "leftHanded"')} }
def Mesh "mirrored" { ${tri('float3 xformOp:scale = (-1, 1, 1)\n uniform token[] xformOpOrder = ["xformOp:scale"]')} }`,
        'metersPerUnit = 1',
      ),
    );
    const [plain, left, mirrored] = result;
    expect([...plain!.indices]).toEqual([0, 1, 2]);
    expectClose(plain!.normals.subarray(0, 3), [0, 0, 1]);
    expect([...left!.indices]).toEqual([0, 2, 1]);
    expectClose(left!.normals.subarray(0, 3), [0, 0, -1]);
    expect([...mirrored!.indices]).toEqual([0, 2, 1]);
    expectClose(mirrored!.normals.subarray(0, 3), [0, 0, 1]); // still facing the same way once mirrored
  });

  it("takes the bound UsdPreviewSurface's constants, else displayColor; skips invisible and inactive prims", () => {
    const tri =
      'point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]\n int[] faceVertexCounts = [3]\n int[] faceVertexIndices = [0, 1, 2]';
    const result = meshes(
      usda(`def Xform "root" {
    rel material:binding = </root/Looks/gold>
    def Mesh "bound" { ${tri}\n color3f[] primvars:displayColor = [(0, 1, 0)] }
    def Mesh "shown" { ${tri}\n color3f[] primvars:displayColor = [(0, 1, 0)]\n rel material:binding = </none> }
    def Mesh "hidden" { ${tri}\n token visibility = "invisible" }
    def Mesh "inactive" ( active = false ) { ${tri} }
    def Scope "Looks" {
        def Material "gold" {
            token outputs:surface.connect = </root/Looks/gold/surface.outputs:surface>
            def Shader "surface" {
                uniform token info:id = "UsdPreviewSurface"
                color3f inputs:diffuseColor = (1, 0.8, 0.2)
                float inputs:metallic = 1
                float inputs:roughness = 0.25
                token outputs:surface
            }
        }
    }
}`),
    );
    expect(result.map((m) => m.name)).toEqual(['bound', 'shown']);
    expect(result[0]!.look).toMatchObject({ color: [1, 0.8, 0.2], metallic: 1, roughness: 0.25 });
    expect(result[1]!.look.color).toEqual([0, 1, 0]);
  });

  it('rejects inconsistent topology with the prim path', () => {
    expect(() =>
      meshes(
        usda(
          'def Mesh "bad" { point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]\n int[] faceVertexCounts = [3]\n int[] faceVertexIndices = [0, 1, 5] }',
        ),
      ),
    ).toThrow('The mesh /bad is inconsistent: a face uses point 5 of 3.');
  });
});

describe('files the built-in reader cannot open', () => {
  const usdc = Buffer.concat([Buffer.from('PXR-USDC'), Buffer.alloc(80)]);

  it('a USDZ holding a binary USDC layer says what to do instead', async () => {
    const zip = bytes(buildZip([{ name: 'model.usdc', data: usdc }], { method: 'store', align: 64 }));
    await expect(readUsdScene(zip)).rejects.toThrow(USDC_IN_USDZ);
    expect(USDC_IN_USDZ).toBe(
      'This USDZ holds a binary USD (USDC) layer, which the built-in reader cannot open. Open the GLB of the same job instead, or install the OpenUSD importer runtime (see README).',
    );
    await expect(readUsdScene(bytes(usdc))).rejects.toThrow(USDC_FILE);
  });

  it('a file that is not USD text, and a layer without meshes', async () => {
    expect(() => layerText(text('solid cube\nfacet normal 0 0 1\n'), false)).toThrow(
      'This file is not a USD text layer (it does not start with "#usda"), so the built-in reader cannot open it.',
    );
    await expect(
      readUsdScene(text(usda('def Xform "root" ( prepend references = @./model.usdc@ ) { }'))),
    ).rejects.toThrow(/builds its model from other layers/);
    await expect(readUsdScene(text(usda('def Sphere "ball" { double radius = 2 }')))).rejects.toThrow(
      'This USD file holds no polygon mesh the built-in reader can show (it holds Sphere prims).',
    );
  });
});
