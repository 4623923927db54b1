// Output-file generators of the local engine: images, meshes (GLB, OBJ, FBX) and ZIP bundles.
export { buildFbxBinary } from './fbx.ts';
export { buildAnimatedGlb, type AnimatedGlbOptions } from './animated.ts';
export { buildGlb, type GlbOptions } from './glb.ts';
export { readGlbJson } from '../../formats/glb.ts';
export { buildMesh, GENERATOR, type Mesh, type MeshKind, type MeshOptions, type Vec3 } from './mesh.ts';
export { buildObj, type ObjOptions } from './obj.ts';
export { decodePngSize, encodePng } from '../../formats/png.ts';
export { renderPreviewImage, renderTexture } from './pictures.ts';
export { buildZip, type ZipEntry } from '../../formats/zip.ts';
