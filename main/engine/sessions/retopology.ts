// Generic /v3 sessions of type retopology, and the assets they read and write. Answers are bare objects.
import { ASSET_PREFIX, type CreateRetopologyRequest } from '../../../shared/contract/index.ts';
import { objInFolder, output, type Output } from '../artifacts.ts';
import type { Services } from '../context.ts';
import { charge } from '../credits.ts';
import { outputsIn } from '../file-store.ts';
import { parseFileUrl } from '../files.ts';
import { HttpError } from '../http.ts';
import { iso, newAssetId, newSessionCode } from '../ids.ts';
import type { MeshOptions } from '../outputs/index.ts';
import { settle, type Stepped, type StepName } from '../progress.ts';
import type { Call, Handler } from '../router.ts';
import { assetStatus, meshAssetGlbUrl, ownAsset, presentAsset, type AssetRecord } from './assets.ts';
import { findOwned, inputGate, refresh } from './common.ts';
import { faultOfStart, withEndFaults } from './faults.ts';

export interface RetopologyRecord extends Stepped {
  _id: string;
  user_id: string;
  status: string;
  model: 'swift' | 'precision';
  quads: boolean;
  input_asset: string;
  output_asset: string;
  /** Why the input mesh could not be used (the session failed). */
  input_error?: string;
  fails: boolean;
  /** Reported while it runs, when a session-status fault rule says so. */
  running_status?: string;
  obj?: Output;
  image?: Output;
  created_at: string;
  updated_at: string;
}

/** Face counts: swift gives light meshes (up to 8K faces, as the service states: never more), precision dense ones. */
const TARGET_FACES = { swift: 8_000, precision: 30_000 } as const;
const MAX_FACES = { swift: 8_000, precision: undefined } as const;
const IMAGE_SIZE = 512;

/** A create request whose type is retopology (POST /v3/sessions takes other types too: see v3.ts). */
export type RetopologyCall = Omit<Call<'createRetopology'>, 'body'> & { body: CreateRetopologyRequest };

export function retopologyHandlers(s: Services): { createRetopology(call: RetopologyCall): ReturnType<Handler<'createRetopology'>>; getV3Session: Handler<'getV3Session'> } {
  function present(rec: RetopologyRecord, now: number) {
    const input = s.state.assets[rec.input_asset]!;
    const complete = rec.status === 'complete' && rec.step === undefined;
    return {
      _id: rec._id,
      user_id: rec.user_id,
      status: rec.step ? (rec.running_status ?? 'incomplete') : rec.status,
      type: 'retopology',
      ...(rec.input_error !== undefined && rec.step === undefined && { error: rec.input_error }),
      input: {
        mesh: { ...presentAsset(s, input, now), data: { glb_url: meshAssetGlbUrl(s, input, now) } },
        model: rec.model,
        quads: rec.quads,
      },
      output: {
        meshes: [
          {
            _id: rec.output_asset,
            name: `${input.name.replace(/\.[^.]*$/, '')}_retopology`,
            status: complete ? 'complete' : 'incomplete',
            data: { obj_url: s.files.url(rec.obj, now), image_url: s.files.url(rec.image, now) },
          },
        ],
      },
      created_at: rec.created_at,
      updated_at: rec.updated_at,
    };
  }

  return {
    async createRetopology({ userId, now, body }) {
      const asset = inputAsset(s, body.input.mesh, userId);
      charge(s, userId, 'createRetopology');
      s.state.assets[asset._id] = asset;
      if (asset.input !== undefined && asset.input.kind === undefined) s.inputs.read(asset.input, 'mesh', `${asset._id}/mesh`);
      const rec: RetopologyRecord = {
        _id: newSessionCode(),
        user_id: userId,
        status: 'incomplete',
        model: body.input.model,
        quads: body.input.quads,
        input_asset: asset._id,
        output_asset: newAssetId(),
        ...faultOfStart(s, 'createRetopology'),
        step: { name: body.input.model, startedAt: now },
        created_at: iso(now),
        updated_at: iso(now),
      };
      s.state.retopology[rec._id] = rec;
      await s.save();
      return present(rec, now);
    },

    async getV3Session({ userId, now, params }) {
      const rec = findOwned(s.state.retopology, params.session_id!, userId);
      const finishing = withEndFaults(s, (r: RetopologyRecord) => r._id, (r: RetopologyRecord, step: StepName, at: number) => finish(s, r, step, at));
      await refresh(s, () => inputGate(rec, s.state.assets[rec.input_asset]!.input, failOnInput) ?? settle(rec, s.clock, now, finishing), () => [rec.obj, rec.image]);
      return present(rec, now);
    },
  };
}

/**
 * The asset a request names: a mesh asset of the account (the input of an earlier retopology, or a mesh an
 * image_to_3d or image_to_kit session made, once complete), or a new asset for a GLB URL.
 */
function inputAsset(s: Services, mesh: string, userId: string): AssetRecord {
  if (mesh.startsWith(ASSET_PREFIX)) {
    const known = ownAsset(s, mesh, userId, 'input.mesh');
    if (known.kind === 'image') throw new HttpError(400, `input.mesh: ${mesh} is an image asset, not a mesh; give a GLB URL or the id of a mesh asset`);
    const status = assetStatus(known);
    if (status !== 'complete') {
      throw new HttpError(400, `input.mesh: the mesh asset ${mesh} is ${status}: wait until the session that makes it is complete (or give a GLB URL)`);
    }
    return known;
  }
  const name = new URL(mesh).pathname.split('/').pop() || 'mesh.glb';
  return { _id: newAssetId(), name, user_id: userId, glb_url: mesh, kind: 'mesh', input: { url: mesh } };
}

/**
 * The shape of an input that is one of this engine's own files (the GLB, OBJ, FBX or USDZ of an earlier
 * session, by its signed URL, whatever port the engine had then): the retopology keeps its shape, size and
 * origin and only remeshes it, as the service does. Undefined for any other input (the engine cannot read
 * a foreign mesh offline): its output is then a shape of its own, seeded by the asset.
 */
function inputShape(s: Services, asset: AssetRecord): MeshOptions | undefined {
  const made = asset.files?.glb.recipe;
  if (made !== undefined && 'mesh' in made) return made.mesh;
  const glbUrl = asset.glb_url;
  let url: URL;
  let engine: URL;
  try {
    url = new URL(glbUrl);
    engine = new URL(s.files.baseUrl);
  } catch {
    return undefined;
  }
  const named = url.protocol === engine.protocol && url.hostname === engine.hostname ? parseFileUrl(url) : undefined;
  if (named === undefined) return undefined;
  for (const file of outputsIn(s.state)) if (file.key === named.key && 'mesh' in file.recipe) return file.recipe.mesh;
  return undefined;
}

/** An input mesh that cannot be used ends the session failed, with why. */
function failOnInput(rec: RetopologyRecord, message: string, at: number): void {
  rec.status = 'failed';
  rec.input_error = message;
  rec.updated_at = iso(at);
}

function finish(s: Services, rec: RetopologyRecord, _step: StepName, endedAt: number): void {
  rec.updated_at = iso(endedAt);
  if (rec.fails) {
    rec.status = 'failed';
    return;
  }
  rec.status = 'complete';
  const seed = rec.input_asset;
  const shape = inputShape(s, s.state.assets[rec.input_asset]!) ?? { seed };
  const limit = MAX_FACES[rec.model];
  const mesh = { ...shape, quads: rec.quads, targetFaces: TARGET_FACES[rec.model], ...(limit === undefined ? {} : { maxFaces: limit }) };
  rec.obj = objInFolder(rec._id, 'retopology', mesh, false);
  rec.image = output(rec._id, 'retopology', { type: 'image', seed, size: IMAGE_SIZE });
}
