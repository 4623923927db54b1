// Reads a GLB's bytes into its engine-fit facts (model-facts.ts). Draco and meshopt geometry is decoded, as the
// library's thumbnails decode it (main/mesh/read-gltf.ts). Runs on the fit check's worker thread (fit-thread.ts).
import { type Document, Logger, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { modelFacts, type ModelFacts } from './model-facts.ts';

/** A model the check cannot read: `message` says why in words. */
export class UnreadableModel extends Error {
  constructor(why: string) {
    super(`The model cannot be checked: ${why}`);
    this.name = 'UnreadableModel';
  }
}

let dracoDecoder: Promise<unknown> | undefined;

export async function readGlb(bytes: Uint8Array): Promise<Document> {
  const io = new NodeIO().setLogger(new Logger(Logger.Verbosity.ERROR)).registerExtensions(ALL_EXTENSIONS);
  try {
    const json = await io.binaryToJSON(bytes);
    const used = (json.json.extensionsUsed ?? []) as string[];
    if (used.includes('KHR_draco_mesh_compression')) {
      dracoDecoder ??= import('draco3dgltf').then(({ default: draco3d }) => draco3d.createDecoderModule());
      io.registerDependencies({ 'draco3d.decoder': await dracoDecoder });
    }
    if (used.includes('EXT_meshopt_compression') || used.includes('KHR_meshopt_compression')) {
      const { MeshoptDecoder } = await import('meshoptimizer/decoder');
      await MeshoptDecoder.ready;
      io.registerDependencies({ 'meshopt.decoder': MeshoptDecoder });
    }
    return await io.readJSON(json);
  } catch (error) {
    throw new UnreadableModel(`it is not a readable GLB (${(error as Error).message}).`);
  }
}

export async function glbFacts(bytes: Uint8Array): Promise<ModelFacts> {
  return modelFacts(await readGlb(bytes));
}
