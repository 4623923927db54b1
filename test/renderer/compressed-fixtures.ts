// A real GLB fixture with its geometry compressed, for the viewer's decoder tests: Draco
// (KHR_draco_mesh_compression, encoded with draco3dgltf) and meshopt (EXT_meshopt_compression, with
// meshoptimizer), both through glTF Transform. Dev dependencies only: the app decodes with Babylon's own
// decoders, served from its files.
import { Logger, NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRDracoMeshCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import { meshopt } from '@gltf-transform/functions';
import draco3d from 'draco3dgltf';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';

/**
 * The GLB at `path` with every mesh compressed by `codec`, and its triangle count as the file holds it once
 * decoded (read back with the codec's reference decoder: an encoder may drop degenerate triangles).
 */
export async function compressedGlb(
  path: string,
  codec: 'draco' | 'meshopt',
): Promise<{ glb: Uint8Array; triangles: number }> {
  await Promise.all([MeshoptEncoder.ready, MeshoptDecoder.ready]);
  const io = new NodeIO()
    .registerExtensions([KHRDracoMeshCompression, EXTMeshoptCompression, KHRMeshQuantization])
    .registerDependencies({
      'draco3d.encoder': await draco3d.createEncoderModule(),
      'draco3d.decoder': await draco3d.createDecoderModule(),
      'meshopt.encoder': MeshoptEncoder,
      'meshopt.decoder': MeshoptDecoder,
    });
  const quiet = new Logger(Logger.Verbosity.WARN);
  const doc = (await io.read(path)).setLogger(quiet);
  if (codec === 'draco')
    doc
      .createExtension(KHRDracoMeshCompression)
      .setRequired(true)
      .setEncoderOptions({ method: KHRDracoMeshCompression.EncoderMethod.EDGEBREAKER });
  else await doc.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
  const glb = await io.writeBinary(doc);
  let triangles = 0;
  const decoded = (await io.readBinary(glb)).setLogger(quiet);
  for (const node of decoded.getRoot().listNodes()) {
    for (const primitive of node.getMesh()?.listPrimitives() ?? [])
      triangles += (primitive.getIndices()?.getCount() ?? primitive.getAttribute('POSITION')!.getCount()) / 3;
  }
  return { glb, triangles };
}
