// The files of a retopology: the OBJ (quads as 4-vertex faces), its MTL and texture, and the preview render.
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import pngjs from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodePngSize } from '../../../main/formats/png.ts';
import { makeRetopologyFiles } from '../../../main/engine/retopology/make-files.ts';
import { boundsOf } from '../../../main/mesh/mesh.ts';
import { readInputMesh } from '../../../main/engine/retopology/read-input.ts';
import { readObj } from '../../../main/mesh/read-obj.ts';
import { renderPreview } from '../../../main/mesh/render.ts';
import { retopologize } from '../../../main/engine/retopology/retopologize.ts';
import { writeObj } from '../../../main/engine/retopology/write-obj.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'fixtures', 'real', 'glb');
const fixture = (name: string) => join(FIXTURES, name);
const lines = (text: string, prefix: string) => text.split('\n').filter((line) => line.startsWith(prefix));

describe('writeObj', () => {
  it('writes quads as 4-vertex faces with texture coordinates and normals, and the texture the input had beside it', async () => {
    const input = await readInputMesh(fixture('BoxTextured.glb'));
    const { mesh } = await retopologize(input, { faces: 8_000, quads: true });
    const { obj, mtl, textures } = writeObj(mesh, 'mesh');
    const faces = lines(obj, 'f ');
    expect(faces).toHaveLength(6);
    for (const face of faces) expect(face.split(' ').slice(1)).toHaveLength(4);
    expect(faces[0]).toMatch(/^f (\d+\/\d+\/\d+ ?){4}$/);
    expect(obj).toContain('mtllib mesh.mtl');
    // A box: six flat sides, so six normals (hard edges at 90°).
    expect(lines(obj, 'vn ')).toHaveLength(6);
    expect(mtl).toContain('map_Kd mesh.png');
    const image = (await new NodeIO().read(fixture('BoxTextured.glb'))).getRoot().listTextures()[0]!.getImage()!;
    expect(textures).toEqual([{ file: 'mesh.png', bytes: image }]);
  });

  it('writes one usemtl group per material with its colour, no texture where the input had none, at the input place and size', async () => {
    const input = await readInputMesh(fixture('2CylinderEngine.glb'));
    const { mesh } = await retopologize(input, { faces: 8_000, quads: true });
    const { obj, mtl, textures } = writeObj(mesh, 'mesh');
    expect(textures).toEqual([]);
    expect(mtl).not.toContain('map_Kd');
    const used = lines(obj, 'usemtl ').map((line) => line.slice(7));
    expect(new Set(used).size).toBe(used.length);
    expect(
      lines(mtl, 'newmtl ')
        .map((line) => line.slice(7))
        .sort(),
    ).toEqual([...used].sort());
    for (const kd of lines(mtl, 'Kd ')) expect(kd).toMatch(/^Kd [\d.]+ [\d.]+ [\d.]+$/);
    // Read back: the same faces, quads and triangles, and the same box as the result.
    const back = readObj(obj);
    expect(back.indices.length / 3).toBe((mesh.quads.length / 4) * 2 + mesh.triangles.length / 3);
    const a = boundsOf(back.positions);
    const b = boundsOf(mesh.positions);
    for (let k = 0; k < 3; k++) {
      expect(a.min[k]).toBeCloseTo(b.min[k]!, 4);
      expect(a.max[k]).toBeCloseTo(b.max[k]!, 4);
    }
  });
});

describe('renderPreview and makeRetopologyFiles', () => {
  it('renders the result over the background, with its face edges drawn darker', async () => {
    const { mesh } = await retopologize(await readInputMesh(fixture('m2m-sample-rig.glb')), {
      faces: 2_000,
      quads: true,
    });
    const png = renderPreview(mesh, 256);
    expect(decodePngSize(png)).toEqual({ width: 256, height: 256 });
    const pixels = decodeRgb(png);
    const corner = pixels.slice(0, 3);
    // The character stands in the middle: the centre column differs from the background, and holds dark edge pixels.
    const centre = Array.from({ length: 256 }, (_, y) => pixels.slice((y * 256 + 128) * 3, (y * 256 + 128) * 3 + 3));
    const covered = centre.filter(
      (rgb) => Math.abs(rgb[0]! - corner[0]!) + Math.abs(rgb[1]! - corner[1]!) + Math.abs(rgb[2]! - corner[2]!) > 12,
    );
    expect(covered.length).toBeGreaterThan(100);
    expect(covered.some((rgb) => rgb[0]! < 110)).toBe(true);
  });

  it('makes the OBJ folder and the preview in one go, with the texture under the name the MTL gives', async () => {
    const made = await makeRetopologyFiles(await readInputMesh(fixture('Fox.glb')), {
      faces: 8_000,
      quads: true,
      name: 'mesh',
      imageSize: 128,
    });
    expect(made.folder.map((f) => f.file)).toEqual(['mesh.obj', 'mesh.mtl', 'mesh.png']);
    expect(Buffer.from(made.folder[1]!.bytes).toString()).toContain('map_Kd mesh.png');
    expect(decodePngSize(made.image)).toEqual({ width: 128, height: 128 });
    expect(made.stats.faces).toBe(made.stats.quads + made.stats.triangles);
    expect(made.stats.inputTriangles).toBe(576);
  });
});

/** The RGB bytes of a PNG, row by row. */
function decodeRgb(png: Buffer): number[] {
  const { data } = pngjs.PNG.sync.read(png);
  return Array.from(data).filter((_, i) => i % 4 !== 3);
}
