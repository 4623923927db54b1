import type { EngineContext } from '../context.ts';
import { inputUrl } from './common.ts';
import { liveStatus, SPIN_SIZE, URL_FIELDS, type ImageTo3dRecord, type UrlField } from './image-to-3d.ts';

// ---- presentation ----------------------------------------------------------------------------------

function urls(s: EngineContext, rec: ImageTo3dRecord, now: number): Record<UrlField, string> {
  return Object.fromEntries(URL_FIELDS.map((f) => [f, s.files.url(rec.outputs[f], now)])) as Record<UrlField, string>;
}

export function currentForm(s: EngineContext, rec: ImageTo3dRecord, now: number) {
  const { status, percent } = liveStatus(s, rec, now);
  const u = urls(s, rec, now);
  return {
    session_code: rec.session_code,
    image_url: inputUrl(s, rec.image, now),
    manual_segmentation: false,
    geometry_model: rec.geometry_model,
    texture_model: rec.texture_model,
    topology: rec.topology,
    resolution: rec.resolution,
    symmetry: 'auto',
    scaled_bbox: rec.scaled_bbox,
    preserve_aspect_ratio: rec.preserve_aspect_ratio,
    pivot_point: rec.pivot_point,
    mesh_url: u.mesh_url,
    mesh_url_obj: u.mesh_url_obj,
    mesh_url_zip: u.mesh_url_zip,
    mesh_url_glb: u.mesh_url_glb,
    mesh_url_fbx: u.mesh_url_fbx,
    mesh_url_usdz: u.mesh_url_usdz,
    mp4_url: '', // no video encoder in the local engine
    created_at: rec.created_at,
    updated_at: rec.updated_at,
    session_status: status,
    percent_done: percent,
    ...(rec.form === 'older' && olderFields(s, rec, now, status, u)),
    ...inputError(rec),
  };
}

/** A picture the input check took but the engine cannot make a mesh of (WebP) ends the step that needs it, failed, at once. */
function inputError(rec: ImageTo3dRecord): { error?: string } {
  return rec.input_error !== undefined && rec.step === undefined && rec.status.endsWith('failed')
    ? { error: rec.input_error }
    : {};
}

/** The four spin images, once they exist. */
function spinViews(s: EngineContext, rec: ImageTo3dRecord, now: number) {
  return rec.inference.map((file) => ({
    image_name: file.key.slice(file.key.lastIndexOf('/') + 1),
    image_url: s.files.url(file, now),
    width: SPIN_SIZE,
    height: SPIN_SIZE,
  }));
}

/**
 * What older clients read when they GET a session made with the older create: its older status
 * (`spin_generate_done`, `preview_processing`…), its spin views (empty until they exist) and its preview
 * meshes (empty until the preview exists). Added to the current form for those sessions only, from the `status`
 * and URLs `u` it holds.
 */
function olderFields(s: EngineContext, rec: ImageTo3dRecord, now: number, status: string, u: Record<UrlField, string>) {
  return {
    status,
    spins: spinViews(s, rec, now),
    preview_mesh_url: u.preview_mesh_url,
    preview_mesh_url_glb: u.preview_mesh_url_glb,
    preview_mesh_url_zip: u.preview_mesh_url_zip,
    preview_mesh_url_usdz: u.preview_mesh_url_usdz,
  };
}

/** The older form's booleans (one row of SERVICE_API.md), which no session of the engine turns on. */
const OLDER_FORM_SWITCHES = ['experimental_model', 'debug', 'private', 'demo', 'random_poses', 'is_deleted'] as const;

export function olderForm(s: EngineContext, rec: ImageTo3dRecord, now: number) {
  const { status, percent } = liveStatus(s, rec, now);
  const { mesh_url_fbx: _fbx, ...u } = urls(s, rec, now);
  return {
    _id: rec._id,
    user_id: rec.user_id,
    session_code: rec.session_code,
    image_url: inputUrl(s, rec.image, now),
    input_image: inputUrl(s, rec.spin_image ?? rec.image, now),
    user_image: '',
    // Every vendor example of the older form has `discord_user_id`; newer answers add `chat_user_id`: both are sent.
    discord_user_id: '',
    chat_user_id: '',
    user_name: '',
    email: '',
    ...u,
    mp4_url: '',
    session_gif: '',
    percentage: percent,
    ...Object.fromEntries(OLDER_FORM_SWITCHES.map((name) => [name, false])),
    status,
    ...inputError(rec),
    source: 'api',
    price: rec.price,
    inference: spinViews(s, rec, now),
    output_id: rec.output_id,
    model_version: rec.model_version,
    created_at: rec.created_at,
    updated_at: rec.updated_at,
  };
}

// ---- creation --------------------------------------------------------------------------------------
