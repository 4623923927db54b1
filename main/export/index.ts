// Export into a game project folder (Unity, Unreal, Godot) or a plain folder, with a manifest.
export type { Bounds, Vec3 } from './bounds.ts';
export { detectProject, type Project } from './detect.ts';
export { ExportError, type ExportErrorCode } from './errors.ts';
// All of export.ts: exportAsset and planExport, their options, plan, result and file types.
export * from './export.ts';
export { clipSourcesOf, exportJob, planJob } from './from-job.ts';
export { manifestFileName, readManifest, type ExportSource, type Manifest } from './manifest.ts';
export { MAX_NAME_LENGTH, styleName, uniqueName, type NameStyle } from './naming.ts';
export { EXPORT_TARGETS, FILE_KINDS, PRESETS, type ExportTarget, type FileKind, type Preset } from './presets.ts';
export { transformGlb, transformsSchema, type Transforms } from './transform.ts';
