// `<name>.assetstudio.json` beside an exported asset: where it came from, what was written, how it was changed.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { RESOURCE_KINDS } from '../../shared/contract/lifecycle.ts';
import { issuesToText, parseWith } from '../../shared/contract/issues.ts';
import { ExportError, ioError, reason } from './errors.ts';
import { EXPORT_TARGETS, FILE_KINDS } from './presets.ts';
import { transformsSchema } from './transform.ts';
import { gameReadyReportSchema } from '../../shared/export-options.ts';

export const MANIFEST_SUFFIX = '.assetstudio.json';
export const MANIFEST_FORMAT = 'asset-studio-export/1';

const APP_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** What the asset was made by, as the caller knows it. */
export const exportSourceSchema = z
  .object({
    sessionId: z.string().min(1),
    jobId: z.string().min(1).optional(),
    kind: z.enum(RESOURCE_KINDS),
    /** The service parameters: the job's request and its result. Signed URLs lose their query (signature). */
    request: z.unknown().optional(),
    result: z.unknown().optional(),
  })
  .strict();
export type ExportSource = z.infer<typeof exportSourceSchema>;

const vec3 = z.tuple([z.number(), z.number(), z.number()]);

export const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  name: z.string().min(1),
  /** The preset used, i.e. the engine. */
  engine: z.enum(EXPORT_TARGETS),
  source: exportSourceSchema,
  files: z.array(
    z.object({
      /** Relative to the manifest's folder. */
      path: z.string().min(1),
      kind: z.enum(FILE_KINDS),
      size: z.number().int().nonnegative(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      /** The source file's name (not its path: cache paths mean nothing elsewhere). */
      from: z.string(),
      transformed: z.boolean(),
    }),
  ),
  transforms: transformsSchema.optional(),
  /** In metres, after the transforms. */
  bbox: z.object({ min: vec3, max: vec3, size: vec3 }).optional(),
  /** An animated model's clips, as the GLB names its animations (a prompt's text, a library clip's label). */
  clips: z.array(z.string()).optional(),
  /** With a target profile: its name, the LOD levels (triangles, error), the texture sizes and what was fixed. */
  gameReady: gameReadyReportSchema.optional(),
  app: z.object({ name: z.literal('asset-studio'), version: z.string() }),
  exportedAt: z.iso.datetime(),
});
export type Manifest = z.infer<typeof manifestSchema>;

export type ManifestFields = Omit<Manifest, 'format' | 'app' | 'exportedAt'>;

export function manifestFileName(name: string): string {
  return `${name}${MANIFEST_SUFFIX}`;
}

export function buildManifest(fields: ManifestFields, now = new Date()): Manifest {
  let source: ExportSource;
  try {
    const text = JSON.stringify(fields.source, (_key, value: unknown) =>
      typeof value === 'string' ? scrub(value) : value,
    );
    source = JSON.parse(text) as ExportSource;
  } catch (error) {
    const why = `cannot be written as JSON (${reason(error)})`;
    throw new ExportError('bad-input', {
      file: 'source',
      why,
      fix: 'Pass the request and result as plain JSON values',
    });
  }
  return {
    format: MANIFEST_FORMAT,
    ...fields,
    source,
    app: { name: 'asset-studio', version: APP_VERSION },
    exportedAt: now.toISOString(),
  };
}

/** Reads and validates a manifest. */
export async function readManifest(path: string): Promise<Manifest> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    if (error instanceof SyntaxError) throw invalid(path, `is not JSON (${reason(error)})`);
    throw ioError(path, 'reading the manifest', error);
  }
  const parsed = parseWith(manifestSchema, value);
  if (!parsed.ok) throw invalid(path, `is not a valid export manifest: ${issuesToText(parsed.issues)}`);
  return parsed.value;
}

function invalid(path: string, why: string): ExportError {
  return new ExportError('bad-manifest', { file: path, why, fix: 'Export the asset again to write a new manifest' });
}

/** Signed URLs expire and grant access until then: keep the address, drop the signature. Inline images are huge. */
function scrub(text: string): string {
  if (/^https?:\/\//i.test(text)) return text.replace(/[?#].*$/s, '');
  const data = /^data:([^;,]*)[^,]*,/.exec(text);
  return data ? `data:${data[1]},… (${text.length} characters left out)` : text;
}
