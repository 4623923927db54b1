// Which files of a finished job to download, read from the resource as the tracker last read it
// (`job.result`). Each file gets a kind that names it within its session: `glb`, `preview_glb`,
// `spin_0`, `prompt:<id>`, `retopo_obj`, ... Empty URLs are skipped; a URL listed twice (the engine
// and the service give `mesh_url` = `mesh_url_glb`) is downloaded once, under its first kind.
import type { JobRecord } from '../store/jobs.ts';
import { urlKey } from './downloader.ts';

export const OUTPUT_FORMATS = ['glb', 'obj', 'fbx', 'usdz', 'zip', 'image', 'mp4'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
/** GLB is always downloaded, whatever the list says: it is what the app reviews. */
export const DEFAULT_FORMATS: readonly OutputFormat[] = ['glb', 'obj', 'fbx', 'usdz', 'zip', 'image'];

export interface OutputFile {
  kind: string;
  url: string;
}

/** A candidate file; `format` undefined: the job's main result (an animation, a retopologized mesh), always downloaded. */
interface Candidate extends OutputFile {
  format?: OutputFormat;
}

type Fields = Record<string, unknown>;

export function outputsOf(job: Pick<JobRecord, 'kind' | 'step' | 'texts' | 'result'>, formats: readonly OutputFormat[] = DEFAULT_FORMATS): OutputFile[] {
  const wanted = (c: Candidate) => c.format === undefined || c.format === 'glb' || formats.includes(c.format);
  const kinds = new Set<string>();
  const urls = new Set<string>();
  const out: OutputFile[] = [];
  for (const c of candidates(job)) {
    if (typeof c.url !== 'string' || c.url === '' || !wanted(c) || kinds.has(c.kind) || urls.has(urlKey(c.url))) continue;
    kinds.add(c.kind);
    urls.add(urlKey(c.url));
    out.push({ kind: c.kind, url: c.url });
  }
  return out;
}

function candidates(job: Pick<JobRecord, 'kind' | 'step' | 'texts' | 'result'>): Candidate[] {
  const r = record(job.result);
  switch (job.kind) {
    case 'image_to_3d':
      return [...meshFiles(r), { kind: 'mp4', url: str(r.mp4_url), format: 'mp4' }];
    case 'image_to_3d_older':
      // The tracker reads get-mesh (a list of one availability record); the list endpoint gives the older form.
      return olderFlow(record(Array.isArray(job.result) ? job.result[0] : job.result), job.step);
    case 'text_to_image':
      return [{ kind: 'image', url: str(r.image_url), format: 'image' }];
    case 'animation_session':
      return [
        { kind: 'mesh', url: str(r.mesh_url) },
        { kind: 'animation', url: str(r.animation_url) },
        { kind: 'render', url: str(r.render_url), format: 'image' },
        { kind: 'thumbnail', url: str(r.thumbnail), format: 'image' },
        ...list(r.animation_library).map((a): Candidate => ({ kind: `library:${str(a._id) || str(a.label)}`, url: str(a.url) })),
      ];
    case 'animation_prompt':
      return list(r.prompts)
        .filter((p) => job.texts === null || job.texts.includes(str(p.text)))
        .flatMap((p): Candidate[] => [
          { kind: `prompt:${str(p._id)}`, url: str(p.mesh_url) },
          { kind: `prompt:${str(p._id)}:usdz`, url: str(p.usdz_url), format: 'usdz' },
        ]);
    case 'v3_session':
      return list(record(r.output).meshes).flatMap((asset, i): Candidate[] => {
        const data = record(asset.data);
        const suffix = i === 0 ? '' : `_${i}`;
        return [
          { kind: `retopo_obj${suffix}`, url: str(data.obj_url) },
          { kind: `retopo_image${suffix}`, url: str(data.image_url), format: 'image' },
        ];
      });
    default:
      return [];
  }
}

/** The mesh in every format of an image-to-3D session (`mesh_url` is the GLB when `mesh_url_glb` is empty). */
function meshFiles(r: Fields, prefix = ''): Candidate[] {
  return [
    { kind: `${prefix}glb`, url: str(r[`${prefix}mesh_url_glb`]), format: 'glb' },
    { kind: `${prefix}glb`, url: str(r[`${prefix}mesh_url`]), format: 'glb' },
    { kind: `${prefix}obj`, url: str(r[`${prefix}mesh_url_obj`]), format: 'obj' },
    { kind: `${prefix}zip`, url: str(r[`${prefix}mesh_url_zip`]), format: 'zip' },
    { kind: `${prefix}fbx`, url: str(r[`${prefix}mesh_url_fbx`]), format: 'fbx' },
    { kind: `${prefix}usdz`, url: str(r[`${prefix}mesh_url_usdz`]), format: 'usdz' },
  ];
}

/** The older flow: each step's own files first, so a URL shared with `mesh_url_*` keeps the step's kind. */
function olderFlow(r: Fields, step: JobRecord['step']): Candidate[] {
  const spin = list(r.inference).map((image, i): Candidate => ({ kind: `spin_${i}`, url: str(image.image_url), format: 'image' }));
  const preview = meshFiles(r, 'preview_');
  const polished = meshFiles(r, 'polished_');
  const mesh = meshFiles(r);
  switch (step) {
    case 'spin':
      return spin;
    case 'preview':
      return [...preview, ...mesh];
    case 'refine':
      return [...mesh, ...polished];
    default:
      return [...spin, ...preview, ...mesh, ...polished];
  }
}

function record(value: unknown): Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : {};
}

function list(value: unknown): Fields[] {
  return Array.isArray(value) ? value.map(record) : [];
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
