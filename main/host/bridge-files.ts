// The bridge's file commands: exports of a job into a game project (detect, plan, run), a local model handed
// to the embedded engine for retopology, batches of dropped files, and the native dialogs.
import { batchJobStates } from '../app/batch.ts';
import { checkBatchFiles } from '../app/batch-check.ts';
import { exportAndRemember, planJobExport } from '../app/export-actions.ts';
import { MeshLinkError, type MeshLinks } from '../app/mesh-links.ts';
import { detectProject } from '../export/index.ts';
import type { BridgeBatches } from './bridge-batches.ts';
import { jobOf, type BridgeContext, type FileRef, type Handlers } from './bridge-context.ts';
import { unsupported } from './errors.ts';

type ExportCommands = 'export.detect' | 'export.plan' | 'export.run' | 'files.meshLink';
type BatchCommands =
  | 'batch.start'
  | 'batch.check'
  | 'batch.cancel'
  | 'batch.expand'
  | 'batch.list'
  | 'batch.jobs'
  | 'batch.forget';
type DialogCommands = 'dialog.openFiles' | 'dialog.chooseFolder';

export function exportHandlers(ctx: BridgeContext, meshLinks: MeshLinks): Handlers<ExportCommands> {
  return {
    'files.meshLink': async (i) => {
      if (ctx.services().mode !== 'embedded')
        throw new MeshLinkError(
          `${i.name} is on this computer, which the service cannot read: its retopology takes a model only as an https URL of a GLB or an ASSET_ id. Put the file where the service can fetch it and paste its URL, or pick a model the service made from the library.`,
        );
      return { url: await meshLinks.link(ctx.platform.resolveFile(i.file), i.name) };
    },
    'export.detect': async (i) => {
      const project = await detectProject(i.projectDir);
      return {
        engine: project.engine,
        root: project.root,
        dir: project.dir,
        ...(project.newFolder && { newFolder: true }),
        ...(project.gltfPackage !== undefined && { gltfPackage: project.gltfPackage }),
      };
    },
    'export.plan': async ({ jobId, ...request }) => planJobExport(ctx.services(), jobOf(ctx, jobId), request),
    'export.run': async ({ jobId, remember, ...request }) => {
      // remember: false (the Blender add-on's imports) leaves the user's last export folder as it was.
      const settings = remember === false ? null : ctx.session.settings;
      const result = await exportAndRemember(ctx.services(), settings, jobOf(ctx, jobId), request);
      const files = result.files.map((f) => ({ path: f.path, size: f.size }));
      return {
        engine: result.engine,
        targetDir: result.targetDir,
        files,
        manifestPath: result.manifestPath,
        replaced: result.replaced,
        kept: result.kept,
        ...(result.clips && { clips: result.clips }),
      };
    },
  };
}

export function batchHandlers(ctx: BridgeContext, batches: BridgeBatches): Handlers<BatchCommands> {
  const resolve = (files: readonly FileRef[]) => files.map((f) => ctx.platform.resolveFile(f));
  return {
    'batch.start': async ({ files, ...request }) => batches.start(ctx.services(), resolve(files), request),
    'batch.check': async (i) => ({
      files: (await checkBatchFiles(resolve(i.files))).files.map((f) =>
        'refused' in f ? { refused: f.refused } : { kind: f.kind },
      ),
    }),
    'batch.cancel': async (i) => batches.cancel(i.batchId),
    'batch.expand': async (i) => batches.expand(resolve(i.files)),
    'batch.list': async () => ({ batches: batches.list() }),
    'batch.jobs': async (i) => ({
      jobs: [...batchJobStates(ctx.services().store, i.ids)].flatMap(([id, job]) => (job ? [{ id, ...job }] : [])),
    }),
    'batch.forget': async (i) => ({ forgotten: batches.forget(i.batchIds) }),
  };
}

export function dialogHandlers(ctx: BridgeContext): Handlers<DialogCommands> {
  const dialogs = () => {
    if (!ctx.platform.dialogs)
      throw unsupported(
        "Native dialogs exist only in the desktop app: use the browser's file picker or drop the files on the page.",
      );
    return ctx.platform.dialogs;
  };
  return {
    'dialog.openFiles': async (i) => ({ paths: await dialogs().openFiles(i) }),
    'dialog.chooseFolder': async (i) => ({ path: await dialogs().chooseFolder(i) }),
  };
}
