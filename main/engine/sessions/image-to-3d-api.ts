// The image-to-3D endpoints: create (current and older variants), spin, preview, refine, get, list, get-mesh.
import { isHttpUrl } from '../../../shared/contract/index.ts';
import type { EngineCurrentCreate, EngineOlderCreate } from '../accepted.ts';
import type { EngineContext } from '../context.ts';
import { creditsOf, imageTo3dCreditsOf } from '../credits.ts';
import { HttpError } from '../http.ts';
import { randomHex } from '../ids.ts';
import type { Handlers } from '../router.ts';
import { storeImage } from './common.ts';
import { faultOfStart } from './faults.ts';
import {
  createImageTo3d,
  liveStatus,
  queueRefine,
  readImageTo3d,
  startPreview,
  startRefine,
  startSpin,
  type ImageTo3dRecord,
} from './image-to-3d.ts';
import { currentForm, olderForm } from './image-to-3d-forms.ts';

type ImageTo3dEndpoints =
  | 'createImageTo3d'
  | 'createImageTo3dLegacy'
  | 'submitSpin'
  | 'preview'
  | 'refine'
  | 'getImageTo3d'
  | 'listImageTo3d'
  | 'getMesh';

export function imageTo3dHandlers(s: EngineContext): Pick<Handlers, ImageTo3dEndpoints> {
  return {
    // The SDK (0.1.3 to 0.1.8) sends pivot_point with the current create too: it is used (accepted.ts).
    async createImageTo3d({ userId, now, body }) {
      const rec = await createImageTo3d(s, userId, now, {
        ...(body as EngineCurrentCreate),
        form: 'current',
        model_version: '',
        auto_gen_3d: false,
      });
      return currentForm(s, rec, now);
    },

    // The older create: at the legacy address, and at the base address when the body has older parameters
    // (see accepted.ts). The preview follows the spin views by itself with `auto_gen_3d`, with
    // `generate_preview_mesh` (the SDK's first releases: then named training_preview from the start), and at the
    // base address also when none of those nor `generate_spin_video` is sent (the docs' and public pages'
    // `preview_mesh: "fast_sculpt"` sessions, which wait for preview_done). `auto_refine` refines it then.
    async createImageTo3dLegacy({ userId, now, body: given, base }) {
      const body = given as unknown as EngineOlderCreate;
      const spinOnly = body.generate_spin_video === true || body.generate_preview_mesh === false;
      const previewAtOnce = !spinOnly && body.generate_preview_mesh === true;
      const implicit =
        !spinOnly && base === 'base' && body.generate_preview_mesh === undefined && body.auto_gen_3d === undefined;
      const rec = await createImageTo3d(s, userId, now, {
        image_url: body.image_url,
        model_version: body.model_version,
        auto_gen_3d: body.auto_gen_3d === true || previewAtOnce || implicit,
        ...(body.auto_refine === true && { auto_refine: true }),
        form: 'older',
        geometry_model: 'base',
        texture_model: body.generate_texture === false ? 'none' : 'baked',
        topology: body.topology ?? 'tris',
        resolution: 'low_poly',
        scaled_bbox: body.scaled_bbox ?? [-1, -1, -1],
        pivot_point: body.pivot_point,
        preserve_aspect_ratio: false,
        ...(base === 'base' && { older_names: 'base' as const }),
        ...(previewAtOnce && { preview_at_once: true }),
        ...(body.preview_mesh === 'fast_sculpt' && { sculpt_preview: true }),
      });
      return olderForm(s, rec, now);
    },

    async submitSpin({ userId, now, body }) {
      const rec = await olderFlowSession(s, body.session_code, userId, now);
      requireIdle(s, rec, now);
      const image = body.image_urls[0]!;
      startSpin(
        rec,
        await storeImage(s, rec.session_code, `spin-input-${rec.runs + 1}`, image),
        faultOfStart(s, 'submitSpin', rec.session_code),
        now,
      );
      s.inputs.read(rec.spin_image!, 'image', `${rec.session_code}/spin-input-${rec.runs}`);
      await s.save(rec);
      return {};
    },

    async preview({ userId, now, params, body }) {
      const rec = await olderFlowSession(s, params.session_code!, userId, now);
      if (rec.inference.length === 0) {
        throw new HttpError(
          400,
          `Session ${rec.session_code} has no spin views yet (status ${liveStatus(s, rec, now).status}): ` +
            'wait for the spin views (status spin_generate_done) before asking for a preview.',
        );
      }
      // A preview asked while another preview (or a refine) is being made is a new trial: it replaces that one.
      // `selected_spin` names a view by its URL; a public page sends the picture itself (a data URI) there, which
      // names no view: `selected_spin_index` then says which.
      const index =
        body.selected_spin === undefined || !isHttpUrl(body.selected_spin)
          ? body.selected_spin_index
          : spinIndexOf(rec, body.selected_spin);
      startPreview(rec, index, body, faultOfStart(s, 'preview', rec.session_code), now);
      await s.save(rec);
      return jobAck(rec, 'preview', { ...body, selected_spin_index: index }, now);
    },

    async refine({ userId, now, params, body }) {
      const rec = await olderFlowSession(s, params.session_code!, userId, now);
      const { status } = liveStatus(s, rec, now);
      const fault = faultOfStart(s, 'refine', rec.session_code);
      // A refine asked while the preview is made follows it (a new trial, never "busy"): its size and pivot are
      // kept for it.
      if (rec.step?.name === 'preview') {
        rec.scaled_bbox = body.scaled_bbox ?? rec.scaled_bbox;
        rec.pivot_point = body.pivot_point ?? rec.pivot_point;
        queueRefine(rec, fault);
        await s.save(rec);
        return jobAck(rec, 'refine', body, now);
      }
      // A refine asked while one is being made is a new trial (it replaces that one), and so is one asked of a
      // session refined already; otherwise it needs a finished preview.
      const previewed = rec.step === undefined && rec.outputs.preview_mesh_url_glb !== undefined;
      if (rec.step?.name !== 'refine' && !previewed) {
        throw new HttpError(
          400,
          `Session ${rec.session_code} cannot be refined now: refining needs a preview (status preview_done, or a preview being made), but its status is ${status}.`,
        );
      }
      startRefine(rec, body, fault, now);
      await s.save(rec);
      return jobAck(rec, 'refine', body, now);
    },

    async getImageTo3d({ userId, now, params }) {
      return currentForm(s, await readImageTo3d(s, params.session_code!, userId, now), now);
    },

    // `page` is a 1-based page number (the spec's wording, "the number of records to skip", is
    // ambiguous); `skip` in the answer is (page - 1) * limit. Newest sessions come first.
    async listImageTo3d({ userId, now, query }) {
      const { limit, page } = query;
      const mine = Object.values(s.state.imageTo3d)
        .filter((rec) => rec.user_id === userId)
        .reverse();
      const skip = (Math.max(page, 1) - 1) * limit; // page 0 (the records-skipped reading of the first page) is the first page
      const results = [];
      for (const rec of mine.slice(skip, skip + limit)) {
        results.push(olderForm(s, await readImageTo3d(s, rec.session_code, userId, now), now));
      }
      return {
        results,
        page,
        skip,
        limit,
        totalPages: Math.ceil(mine.length / limit),
        totalResults: mine.length,
        credits: creditsOf(s, userId),
        image_to_3d_credits: imageTo3dCreditsOf(s, userId),
      };
    },

    async getMesh({ userId, now, params }) {
      const rec = await readImageTo3d(s, params.session_code!, userId, now);
      const u = olderForm(s, rec, now);
      return [
        {
          mesh_url_usdz: u.mesh_url_usdz,
          mesh_url_glb: u.mesh_url_glb,
          mesh_url: u.mesh_url,
          mesh_url_zip: u.mesh_url_zip,
          preview_mesh_url_zip: u.preview_mesh_url_zip,
          preview_mesh_url_glb: u.preview_mesh_url_glb,
          preview_mesh_url_usdz: u.preview_mesh_url_usdz,
          status: u.status,
        },
      ];
    },
  };
}

async function olderFlowSession(s: EngineContext, code: string, userId: string, now: number): Promise<ImageTo3dRecord> {
  const rec = await readImageTo3d(s, code, userId, now);
  if (rec.form !== 'older') {
    throw new HttpError(
      400,
      `Session ${code} was created with the current one-step variant, which has no spin, preview or refine steps; ` +
        'create the session at the legacy address, or with the older parameters (auto_gen_3d, model_version…), for the step-by-step flow.',
    );
  }
  return rec;
}

function requireIdle(s: EngineContext, rec: ImageTo3dRecord, now: number): void {
  if (rec.step !== undefined) {
    throw new HttpError(
      400,
      `Session ${rec.session_code} is busy (status ${liveStatus(s, rec, now).status}): wait until this step finishes.`,
    );
  }
}

/** The spin view a `selected_spin` URL points at; signed URLs are matched by their file path. */
function spinIndexOf(rec: ImageTo3dRecord, url: string): number {
  const path = isHttpUrl(url) ? new URL(url).pathname : '';
  const index = rec.inference.findIndex((file) => path.endsWith(`/${file.key}`));
  if (index < 0)
    throw new HttpError(
      400,
      `selected_spin: must be the URL of one of the four spin images of session ${rec.session_code}`,
    );
  return index;
}

function jobAck(rec: ImageTo3dRecord, call: 'preview' | 'refine', options: object, now: number) {
  const key = randomHex(16);
  return {
    scenario: rec.session_code,
    unique_trial_key: key,
    status: 'unprocessed',
    complete_job_data: {
      scenario: rec.session_code,
      job_priority: 'normal',
      username: '',
      call,
      user_id: rec.user_id,
      status: 'unprocessed',
      start_time: (now / 1000).toFixed(6),
      unique_trial_key: key,
      task_data: JSON.stringify(options),
      id: randomHex(),
    },
  };
}
