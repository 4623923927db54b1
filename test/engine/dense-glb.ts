// A dense, wavy grid as a GLB (glTF Transform): heavy retopology inputs for the worker-pool tests and bench/engine-loop.ts.
import { Document, NodeIO } from '@gltf-transform/core';

/** An n × n grid of quads (2n² triangles) on the unit square, its heights a few sine waves (real detail to keep). */
export async function denseGridGlb(n: number): Promise<Buffer> {
  const side = n + 1;
  const positions = new Float32Array(side * side * 3);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const u = x / n;
      const v = y / n;
      const at = (y * side + x) * 3;
      positions[at] = u;
      positions[at + 1] = 0.05 * Math.sin(u * 17) * Math.cos(v * 13) + 0.01 * Math.sin(u * 91 + v * 77);
      positions[at + 2] = v;
    }
  }
  const indices = new Uint32Array(n * n * 6);
  let k = 0;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const a = y * side + x;
      indices.set([a, a + side, a + 1, a + 1, a + side, a + side + 1], k);
      k += 6;
    }
  }
  const doc = new Document();
  const buffer = doc.createBuffer();
  const primitive = doc
    .createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(indices).setBuffer(buffer));
  const mesh = doc.createMesh('grid').addPrimitive(primitive);
  doc.createScene().addChild(doc.createNode('grid').setMesh(mesh));
  return Buffer.from(await new NodeIO().writeBinary(doc));
}
