// Every export target's module, by its id (shared/export-options.ts EXPORT_TARGETS): the one list to add an engine to.
import type { ExportTarget } from '../../../shared/export-options.ts';
import { folder } from './folder.ts';
import { godot } from './godot.ts';
import type { ExportTargetModule } from './target.ts';
import { unity } from './unity.ts';
import { unreal } from './unreal.ts';

export type { ExportTargetModule } from './target.ts';

export const TARGETS: Readonly<Record<ExportTarget, ExportTargetModule>> = { unity, unreal, godot, folder };
