import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { companionsOf, makeArtifact, output, pictureObjInFolder } from '../../../main/engine/artifacts.ts';
import type { PictureMesh } from '../../../main/engine/generate/mesh-options.ts';
import {
  pictureFbx,
  pictureGlb,
  pictureObj,
  pictureObjZip,
  pictureRender,
  pictureUsdz,
} from '../../../main/engine/generate/picture-outputs.ts';
import { decodeImage } from '../../../main/images/decode-image.ts';
import { readGlbJson } from '../../../main/formats/glb.ts';
import { withLoadedFbx } from '../outputs/babylon-fbx.ts';
import { pictureBytes, pictureSpec } from './fixtures.ts';
import { validator } from '../../gltf-validator.ts';

const chair = pictureBytes('chair.png');
const spec = (over: Partial<PictureMesh> = {}) => pictureSpec({ picture: 'chair.png', ...over });

interface Gltf {
  accessors: { count: number }[];
  images?: unknown[];
  materials: { pbrMetallicRoughness: Record<string, unknown>; normalTexture?: unknown }[];
}

/** Entries of a zip, with where each one's data starts. */
async function zipEntries(zip: Buffer): Promise<{ name: string; data: Buffer; start: number }[]> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const out: { name: string; data: Buffer; start: number }[] = [];
  for await (const entry of file.eachEntry()) {
    const stream = await file.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const local = entry.relativeOffsetOfLocalHeader;
    out.push({
      name: entry.fileName,
      data: Buffer.concat(chunks),
      start: local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28),
    });
  }
  return out;
}

describe('the outputs of a model from the picture', () => {
  it.each([
    ['none', 0],
    ['baked', 1],
    ['pbr', 3],
  ] as const)(
    'GLB with texture_model %s passes the Khronos validator with no issue and embeds %d images',
    async (texture, images) => {
      for (const quads of [false, true]) {
        const glb = pictureGlb(spec({ texture, quads }), chair);
        const report = await validator.validateBytes(new Uint8Array(glb));
        expect(report.issues.numErrors + report.issues.numWarnings, JSON.stringify(report.issues.messages)).toBe(0);
        const gltf = readGlbJson(glb) as Gltf;
        expect(gltf.images ?? []).toHaveLength(images);
        const material = gltf.materials[0]!;
        if (texture === 'none') expect(material.pbrMetallicRoughness.baseColorFactor).toHaveLength(4);
        if (texture === 'pbr') {
          expect(material.pbrMetallicRoughness.metallicRoughnessTexture).toEqual({ index: 1 });
          expect(material.normalTexture).toEqual({ index: 2 });
        }
        // Quads are drawn as triangle pairs: at most 2,000 faces, up to 4,000 triangles.
        expect(gltf.accessors[3]!.count / 3).toBeLessThanOrEqual(quads ? 4_000 : 2_000);
      }
    },
  );

  it('OBJ keeps quads as 4-corner faces and names its textures in the MTL', () => {
    const { obj, mtl } = pictureObj(spec({ quads: true, texture: 'pbr' }), chair, 'mesh');
    const faces = obj.split('\n').filter((line) => line.startsWith('f '));
    expect(faces.length).toBeLessThanOrEqual(2_000);
    const quads = faces.filter((line) => line.split(' ').length === 5).length;
    expect(quads / faces.length).toBeGreaterThan(0.85);
    expect(obj).toMatch(/^mtllib mesh\.mtl$/m);
    expect(mtl).toMatch(/^map_Kd mesh\.png$/m);
    expect(mtl).toMatch(/^map_Pr -imfchan g mesh_metallic_roughness\.png$/m);
    expect(mtl).toMatch(/^norm mesh_normal\.png$/m);
    // Every index points at a vertex.
    const vertices = obj.split('\n').filter((line) => line.startsWith('v ')).length;
    const highest = Math.max(
      ...faces.flatMap((line) =>
        line
          .slice(2)
          .split(' ')
          .map((c) => Number(c.split('/')[0])),
      ),
    );
    expect(highest).toBe(vertices);
  });

  it('the OBJ zip holds the folder with the OBJ, its MTL and the textures it names', async () => {
    const entries = await zipEntries(pictureObjZip(spec({ texture: 'pbr' }), chair, 'mesh', 'SESSION_x'));
    expect(entries.map((e) => e.name)).toEqual([
      'SESSION_x/mesh.obj',
      'SESSION_x/mesh.mtl',
      'SESSION_x/mesh.png',
      'SESSION_x/mesh_metallic_roughness.png',
      'SESSION_x/mesh_normal.png',
    ]);
    const texture = decodeImage(entries[2]!.data);
    expect([texture.width, texture.height]).toEqual([1024, 512]);
  });

  it('FBX loads in the Babylon.js FBX loader with the texture embedded in its material', async () => {
    const fbx = pictureFbx(spec({ quads: true }), chair);
    await withLoadedFbx(fbx, (container, warnings) => {
      expect(warnings).toEqual([]);
      const meshes = container.meshes.filter((m) => m.getTotalVertices() > 0);
      expect(meshes).toHaveLength(1);
      const material = meshes[0]!.material as unknown as { albedoTexture?: unknown; diffuseTexture?: unknown } | null;
      expect(material).not.toBeNull();
      expect(material!.albedoTexture ?? material!.diffuseTexture).toBeTruthy();
      expect(container.textures.length).toBeGreaterThan(0);
    });
    expect(fbx.includes(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(true); // the PNG itself
  });

  it('USDZ holds the layer first, then its textures, each 64-byte aligned, with mixed faces and a bound material', async () => {
    const entries = await zipEntries(pictureUsdz(spec({ quads: true, texture: 'pbr' }), chair));
    expect(entries.map((e) => e.name)).toEqual([
      'model.usda',
      'textures/base_color.png',
      'textures/metallic_roughness.png',
      'textures/normal.png',
    ]);
    for (const e of entries) expect(e.start % 64, e.name).toBe(0);
    const usda = entries[0]!.data.toString('utf8');
    const counts = /faceVertexCounts = \[([^\]]*)\]/.exec(usda)![1]!.split(', ').map(Number);
    expect(counts.filter((c) => c === 4).length / counts.length).toBeGreaterThan(0.85);
    expect(usda).toContain('rel material:binding = </model/Materials/material>');
    expect(usda).toContain('asset inputs:file = @textures/base_color.png@');
    expect(usda).toContain('normal3f inputs:normal.connect');
  });

  it('renders a spin view as a 256×256 PNG of the model on white', () => {
    const png = pictureRender(spec(), chair, 256, Math.PI / 2);
    const image = decodeImage(png);
    expect([image.width, image.height]).toEqual([256, 256]);
    expect(Array.from(image.data.subarray(0, 4))).toEqual([255, 255, 255, 255]);
    const centre = (128 * 256 + 128) * 4;
    expect(image.data[centre]! + image.data[centre + 1]! + image.data[centre + 2]!).toBeLessThan(3 * 250);
  });
});

describe('recipes of a model from the picture (what sessions record)', () => {
  const model = spec({ picture: 'SESSION_a/input.png', texture: 'pbr' });
  const read = (key: string) => {
    expect(key).toBe('SESSION_a/input.png');
    return chair;
  };

  it('an OBJ in its folder names the MTL and the three textures served beside it', () => {
    const obj = pictureObjInFolder('SESSION_a', 'mesh-1', model);
    expect(obj.key).toBe('SESSION_a/mesh-1/mesh.obj');
    expect(companionsOf(obj).map((f) => f.key)).toEqual([
      'SESSION_a/mesh-1/mesh.mtl',
      'SESSION_a/mesh-1/mesh.png',
      'SESSION_a/mesh-1/mesh_metallic_roughness.png',
      'SESSION_a/mesh-1/mesh_normal.png',
    ]);
    const mtl = makeArtifact(companionsOf(obj)[0]!.recipe, read).toString('utf8');
    for (const companion of companionsOf(obj).slice(1)) expect(mtl).toContain(companion.key.split('/').pop());
    expect(makeArtifact(obj.recipe, read).toString('utf8')).toMatch(/^mtllib mesh\.mtl$/m);
  });

  it('reads the stored picture through the file store, and says so when there is none', () => {
    const glb = output('SESSION_a', 'mesh-1', { type: 'picture-glb', model });
    expect(makeArtifact(glb.recipe, read).subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(() => makeArtifact(glb.recipe)).toThrow(/needs the stored file SESSION_a\/input\.png/);
  });

  it('refuses a recorded model that breaks the schema (a state file edited by hand)', () => {
    const broken = { ...model, faces: 5, pivot: [0, 2, 0] } as PictureMesh;
    expect(() => makeArtifact({ type: 'picture-glb', model: broken }, read)).toThrow(/faces|pivot/);
  });
});
