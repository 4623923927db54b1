// Image-to-3D sessions: the current one-shot form and the older step-by-step flow (upload, spin views,
// preview, refine), in one record type with two presentations.
import type {
  CreateImageTo3dRequest,
  GEOMETRY_MODELS,
  RESOLUTIONS,
  TEXTURE_MODELS,
  TOPOLOGIES,
  Vec3,
} from '../../../shared/contract/index.ts';
import { objInFolder, output, pictureObjInFolder, type Output } from '../artifacts.ts';
import type { EngineContext } from '../context.ts';
import { charge } from '../credits.ts';
import { createdAt, iso, newSessionCode, randomHex } from '../ids.ts';
import type { MeshOptions } from '../outputs/index.ts';
import { phaseStatus, runningPercent, settle, type Phases, type Stepped, type StepName } from '../progress.ts';
import type { PictureMesh } from '../generate/mesh-options.ts';
import { findOwned, inputGate, keepNew, refresh, storeImage, type InputRef } from './common.ts';
import { faultOfStart, withEndFaults, type StepFault } from './faults.ts';
import { pictureProblem, storedPicture } from './picture-input.ts';

export const URL_FIELDS = [
  'mesh_url',
  'mesh_url_glb',
  'mesh_url_obj',
  'mesh_url_zip',
  'mesh_url_fbx',
  'mesh_url_usdz',
  'preview_mesh_url',
  'preview_mesh_url_glb',
  'preview_mesh_url_zip',
  'preview_mesh_url_usdz',
  'polished_mesh_url',
  'polished_mesh_url_glb',
  'polished_mesh_url_usdz',
] as const;
export type UrlField = (typeof URL_FIELDS)[number];

export interface ImageTo3dRecord extends Stepped {
  form: 'current' | 'older';
  _id: string;
  session_code: string;
  user_id: string;
  output_id: string;
  price: number;
  created_at: string;
  updated_at: string;
  image: InputRef;
  /** The image given to the last regenerated spin. */
  spin_image?: InputRef;
  geometry_model: (typeof GEOMETRY_MODELS)[number];
  texture_model: (typeof TEXTURE_MODELS)[number];
  topology: (typeof TOPOLOGIES)[number];
  resolution: (typeof RESOLUTIONS)[number];
  scaled_bbox: Vec3;
  preserve_aspect_ratio: boolean;
  pivot_point: Vec3;
  model_version: string;
  auto_gen_3d: boolean;
  /**
   * An older-form session created at the base address names its running steps as the SDK's first releases
   * read them there: `spin_generate_processing` from the start, `training_preview` while the preview is made
   * (and from the start when the preview is made at once). Absent: the legacy address's names.
   */
  older_names?: 'base';
  /** The older create asked for the preview mesh at once (`generate_preview_mesh`): spin, then preview. */
  preview_at_once?: boolean;
  /**
   * The older create's `preview_mesh: "fast_sculpt"` (the SDK's default preview model): its preview's
   * `preview_mesh_url_zip` is the OBJ itself, not a zip (the SDK's commit "return mesh.obj instead of mesh.zip"
   * for the sculpting model saves that URL as mesh.obj).
   */
  sculpt_preview?: boolean;
  /**
   * The preview being made is refined by itself once done (then cleared): the older create's `auto_refine`, or a
   * refine asked while the preview was made (its fault rule in `refine_fault`).
   */
  auto_refine?: boolean;
  refine_fault?: StepFault;
  /** Status after the last finished step; while a step runs, the status comes from its phases. */
  status: string;
  /** The running (or last) step ends failed (a session-failure fault rule). */
  fails: boolean;
  /** Reported while the step runs, when a session-status fault rule says so. */
  running_status?: string | undefined;
  /** Why the input of the last step could not be used (the step failed). */
  input_error?: string;
  /** Counts started steps, so each run writes its files under new names. */
  runs: number;
  /**
   * The mesh the running (or last) mesh step produces: its faces, topology, size and pivot. It is made from the
   * stored picture (the spin's image in the older flow) when there is one; records from before inputs were
   * stored keep the seeded mesh of `mesh.seed`.
   */
  mesh?: MeshOptions;
  /** The older flow: the spin view the preview was made from (the model is turned as that view shows it). */
  view?: number;
  inference: Output[];
  outputs: Partial<Record<UrlField, Output>>;
}

const PHASES: Record<'mesh' | 'upload' | 'spin' | 'preview' | 'refine', Phases> = {
  mesh: [
    [0.1, 'queued'],
    [0.6, 'in_progress'],
    [1, 'processing'],
  ],
  upload: [[1, 'uploaded']],
  spin: [[1, 'spin_generate_processing']],
  preview: [[1, 'preview_processing']],
  refine: [[1, 'refine_processing']],
};
const FINAL_PERCENT: Record<string, number> = {
  complete: 100,
  spin_generate_done: 100,
  preview_done: 100,
  refine_done: 100,
};
/** The status of a failed step; the current form's one step fails as `failed`. */
const FAILED = { spin: 'spin_generate_failed', preview: 'preview_failed', refine: 'refine_failed' } as const;
const LOW_POLY_FACES = 2_000;
const HIGH_POLY_FACES = 20_000;
const SPIN_VIEWS = 4;
export const SPIN_SIZE = 256;

// ---- progression -----------------------------------------------------------------------------------

export function liveStatus(s: EngineContext, rec: ImageTo3dRecord, now: number): { status: string; percent: number } {
  if (rec.step === undefined) return { status: rec.status, percent: FINAL_PERCENT[rec.status] ?? 0 };
  const fraction = s.clock.fraction(rec.step, now);
  const status =
    rec.running_status ??
    baseName(rec, rec.step.name) ??
    phaseStatus(PHASES[rec.step.name as keyof typeof PHASES], fraction);
  return { status, percent: status === 'queued' || status === 'uploaded' ? 0 : runningPercent(fraction) };
}

/** The name of a running step of an older-form session created at the base address (see `older_names`). */
function baseName(rec: ImageTo3dRecord, step: StepName): string | undefined {
  if (rec.older_names !== 'base') return undefined;
  if (step === 'preview' || (rec.preview_at_once && (step === 'upload' || step === 'spin'))) return 'training_preview';
  if (step === 'upload' || step === 'spin') return 'spin_generate_processing';
  if (step === 'refine') return 'training_refine';
  return undefined;
}

function startStep(rec: ImageTo3dRecord, name: StepName, at: number): void {
  rec.runs += 1;
  rec.step = { name, startedAt: at };
  rec.updated_at = iso(at);
}

function finish(rec: ImageTo3dRecord, step: StepName, endedAt: number): void {
  rec.updated_at = iso(endedAt);
  if (step === 'upload') {
    startStep(rec, 'spin', endedAt);
    return;
  }
  if (rec.fails) {
    rec.status = FAILED[step as keyof typeof FAILED] ?? 'failed';
    delete rec.auto_refine; // a refine waiting for this step does not follow a failure
    delete rec.refine_fault;
    return;
  }
  if (step === 'spin') {
    finishSpin(rec, endedAt);
    return;
  }
  const { glb, obj, zip, fbx, usdz } = meshFiles(rec, `${step}-${rec.runs}`);
  const full = {
    mesh_url: glb,
    mesh_url_glb: glb,
    mesh_url_obj: obj,
    mesh_url_zip: zip,
    mesh_url_fbx: fbx,
    mesh_url_usdz: usdz,
  };
  switch (step) {
    case 'mesh':
      rec.status = 'complete';
      rec.outputs = full;
      return;
    case 'preview':
      rec.status = 'preview_done';
      rec.outputs = {
        preview_mesh_url: obj,
        preview_mesh_url_glb: glb,
        preview_mesh_url_zip: rec.sculpt_preview === true ? obj : zip,
        preview_mesh_url_usdz: usdz,
        mesh_url: glb,
        mesh_url_glb: glb,
      };
      if (rec.auto_refine === true) {
        const fault = rec.refine_fault ?? { fails: false };
        delete rec.auto_refine; // the first preview only
        delete rec.refine_fault;
        startRefine(rec, {}, fault, endedAt);
      }
      return;
    case 'refine':
      rec.status = 'refine_done';
      rec.outputs = {
        ...rec.outputs,
        ...full,
        polished_mesh_url: glb,
        polished_mesh_url_glb: glb,
        polished_mesh_url_usdz: usdz,
      };
      return;
    default:
      throw new Error(`image-to-3D sessions have no step ${step}`);
  }
}

/**
 * The spin views: the model made from the spin's picture (low poly, textured) seen from the front, right, back
 * and left (a quarter turn each), or seeded pictures for records from before inputs were stored.
 */
function finishSpin(rec: ImageTo3dRecord, endedAt: number): void {
  const code = rec.session_code;
  rec.status = 'spin_generate_done';
  const model = pictureModelOf(rec, { seed: code, quads: false, targetFaces: LOW_POLY_FACES });
  rec.inference = Array.from({ length: SPIN_VIEWS }, (_, i) =>
    model !== undefined
      ? output(code, `spin-${rec.runs}-${i}`, { type: 'render', model, size: SPIN_SIZE, yaw: (i * Math.PI) / 2 })
      : output(code, `spin-${rec.runs}-${i}`, { type: 'image', seed: `${code}:${rec.runs}:${i}`, size: SPIN_SIZE }),
  );
  if (rec.auto_gen_3d && rec.mesh === undefined) startPreview(rec, 0, {}, { fails: false }, endedAt); // after the first spin only
}

/** The mesh `mesh` asks for, made from the session's stored picture; undefined when the record has none (older records). */
function pictureModelOf(rec: ImageTo3dRecord, mesh: MeshOptions, view?: number): PictureMesh | undefined {
  const picture = storedPicture(rec.spin_image ?? rec.image);
  if (picture === undefined) return undefined;
  return {
    picture,
    faces: mesh.targetFaces ?? LOW_POLY_FACES,
    quads: mesh.quads ?? false,
    texture: rec.texture_model,
    scale: mesh.scale ?? [-1, -1, -1],
    preserveAspectRatio: mesh.preserveAspectRatio ?? false,
    pivot: mesh.pivot ?? [0, 0, 0],
    ...(view !== undefined && view !== 0 && { turn: view }),
  };
}

/** The files of the mesh the finished step made; a step references only the formats it offers. */
function meshFiles(rec: ImageTo3dRecord, name: string) {
  const mesh = rec.mesh!;
  const code = rec.session_code;
  const model = pictureModelOf(rec, mesh, rec.view);
  if (model !== undefined) {
    return {
      glb: output(code, name, { type: 'picture-glb', model }),
      obj: pictureObjInFolder(code, name, model),
      zip: output(code, name, { type: 'picture-obj-zip', model, folder: code }),
      fbx: output(code, name, { type: 'picture-fbx', model }),
      usdz: output(code, name, { type: 'picture-usdz', model }),
    };
  }
  return {
    glb: output(code, name, { type: 'glb', mesh, texture: rec.texture_model !== 'none' }),
    obj: objInFolder(code, name, mesh, true),
    zip: output(code, name, { type: 'obj-zip', mesh, folder: code }),
    fbx: output(code, name, { type: 'fbx', mesh, texture: rec.texture_model !== 'none' }),
    usdz: output(code, name, { type: 'usdz', mesh }),
  };
}

/** Regenerates the spin views from `image`; earlier views and meshes are dropped. */
export function startSpin(rec: ImageTo3dRecord, image: InputRef, fault: StepFault, at: number): void {
  rec.spin_image = image;
  rec.fails = fault.fails;
  rec.running_status = fault.running_status;
  rec.inference = [];
  rec.outputs = {};
  startStep(rec, 'spin', at);
}

/**
 * Starts a preview of spin view `index`: the model turned as that view shows it (older records: a mesh seeded
 * by that spin image, so another view gives another mesh).
 */
export function startPreview(
  rec: ImageTo3dRecord,
  index: number,
  shape: MeshShape,
  fault: StepFault,
  at: number,
): void {
  rec.mesh = { seed: rec.inference[index]!.key, quads: false, targetFaces: LOW_POLY_FACES };
  rec.view = index;
  rec.outputs = {};
  startMeshStep(rec, 'preview', shape, fault, at);
}

/** Refines the preview being made once it is done (see `auto_refine`). */
export function queueRefine(rec: ImageTo3dRecord, fault: StepFault): void {
  rec.auto_refine = true;
  rec.refine_fault = fault;
}

/** Starts the refined (high-poly) version of the preview mesh, in quads when the older create asked for them. */
export function startRefine(rec: ImageTo3dRecord, shape: MeshShape, fault: StepFault, at: number): void {
  rec.mesh = { ...rec.mesh!, targetFaces: HIGH_POLY_FACES, quads: rec.topology === 'quads' };
  startMeshStep(rec, 'refine', shape, fault, at);
}

/** Size and pivot of a preview or refine: given values replace the session's. */
interface MeshShape {
  scaled_bbox?: Vec3 | undefined;
  pivot_point?: Vec3 | undefined;
}

function startMeshStep(
  rec: ImageTo3dRecord,
  name: 'preview' | 'refine',
  shape: MeshShape,
  fault: StepFault,
  at: number,
): void {
  rec.fails = fault.fails;
  rec.running_status = fault.running_status;
  rec.scaled_bbox = shape.scaled_bbox ?? rec.scaled_bbox;
  rec.pivot_point = shape.pivot_point ?? rec.pivot_point;
  rec.mesh = { ...rec.mesh!, scale: rec.scaled_bbox, pivot: rec.pivot_point };
  startStep(rec, name, at);
}

/** The caller's session with its finished steps recorded and its files made. */
export async function readImageTo3d(
  s: EngineContext,
  code: string,
  userId: string,
  now: number,
): Promise<ImageTo3dRecord> {
  const rec = findOwned(s.state.imageTo3d, code, userId);
  await refresh(
    s,
    () => [rec],
    () =>
      inputGate(rec, rec.spin_image ?? rec.image, failOnInput) ??
      pictureGate(s, rec, now) ??
      settle(
        rec,
        s.clock,
        now,
        withEndFaults(s, (r) => r.session_code, finish),
      ),
    () => [...Object.values(rec.outputs), ...rec.inference],
  );
  return rec;
}

function pictureGate(s: EngineContext, rec: ImageTo3dRecord, now: number): boolean | undefined {
  if (rec.step === undefined || (rec.step.name !== 'mesh' && rec.step.name !== 'spin')) return undefined;
  const problem = pictureProblem(s, rec.spin_image ?? rec.image);
  if (problem === undefined) return undefined;
  delete rec.step;
  failOnInput(rec, problem, now);
  return true;
}

/** The step whose input cannot be used ends failed: `failed`, or for the older flow `spin_generate_failed` (its first step). */
function failOnInput(rec: ImageTo3dRecord, message: string, at: number): void {
  rec.status = rec.form === 'current' ? 'failed' : 'spin_generate_failed';
  rec.input_error = message;
  rec.updated_at = iso(at);
}

/** `error`: why the session failed, when its input could not be used (not in the seed; clients that do not know it ignore it). */

export interface CreateInput extends Omit<CreateImageTo3dRequest, 'image_url'> {
  form: ImageTo3dRecord['form'];
  image_url: string;
  model_version: string;
  auto_gen_3d: boolean;
  /** The older create's pivot (the SDK sends one); the current create has none. */
  pivot_point?: Vec3 | undefined;
  older_names?: 'base';
  preview_at_once?: boolean;
  sculpt_preview?: boolean;
  auto_refine?: boolean;
}

export async function createImageTo3d(
  s: EngineContext,
  userId: string,
  now: number,
  input: CreateInput,
): Promise<ImageTo3dRecord> {
  const code = newSessionCode();
  const price = charge(s, userId, input.form === 'current' ? 'createImageTo3d' : 'createImageTo3dLegacy');
  const rec: ImageTo3dRecord = {
    form: input.form,
    _id: randomHex(),
    session_code: code,
    user_id: userId,
    output_id: randomHex(),
    price,
    ...createdAt(now),
    image: await storeImage(s, code, 'input', input.image_url),
    geometry_model: input.geometry_model,
    texture_model: input.texture_model,
    topology: input.topology,
    resolution: input.resolution,
    scaled_bbox: input.scaled_bbox,
    preserve_aspect_ratio: input.preserve_aspect_ratio,
    pivot_point: input.pivot_point ?? [0, 0, 0],
    model_version: input.model_version,
    auto_gen_3d: input.auto_gen_3d,
    ...(input.older_names !== undefined && { older_names: input.older_names }),
    ...(input.preview_at_once === true && { preview_at_once: true }),
    ...(input.sculpt_preview === true && { sculpt_preview: true }),
    ...(input.auto_refine === true && { auto_refine: true }),
    status: input.form === 'current' ? 'queued' : 'uploaded',
    ...faultOfStart(s, input.form === 'current' ? 'createImageTo3d' : 'createImageTo3dLegacy'),
    runs: 0,
    inference: [],
    outputs: {},
  };
  if (input.form === 'current') {
    rec.mesh = {
      seed: code,
      quads: input.topology === 'quads',
      targetFaces: input.resolution === 'low_poly' ? LOW_POLY_FACES : HIGH_POLY_FACES,
      scale: input.scaled_bbox,
      preserveAspectRatio: input.preserve_aspect_ratio,
      pivot: rec.pivot_point,
    };
  }
  startStep(rec, input.form === 'current' ? 'mesh' : 'upload', now);
  s.inputs.read(rec.image, 'image', `${code}/input`);
  await keepNew(s, s.state.imageTo3d, code, rec);
  return rec;
}
