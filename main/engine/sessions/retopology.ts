// Generic /v3 sessions of type retopology, and the assets they read and write. Answers are bare objects.
import { extname } from 'node:path';
import { ASSET_PREFIX, type CreateRetopologyRequest } from '../../../shared/contract/index.ts';
import type { Output, Recipe } from '../artifacts.ts';
import type { EngineContext } from '../context.ts';
import { charge } from '../credits.ts';
import { outputsIn } from '../file-store.ts';
import { signedFileUrl } from '../files.ts';
import { HttpError } from '../http.ts';
import { createdAt, iso, newAssetId, newSessionCode } from '../ids.ts';
import { describeInput } from '../inputs.ts';
import { settle, type Stepped, type StepName } from '../progress.ts';
import type { RetopologyOutcome } from '../retopology/runner.ts';
import { UnreadableMesh } from '../../mesh/unreadable.ts';
import type { Call, Handler } from '../router.ts';
import type { RetopologySource } from '../work/tasks.ts';
import { assetStatus, meshAssetGlbUrl, ownAsset, presentAsset, type AssetRecord } from './assets.ts';
import { findOwned, inputGate, keepNew, refresh } from './common.ts';
import { faultOfStart, withEndFaults } from './faults.ts';

export interface RetopologyRecord extends Stepped {
  _id: string;
  user_id: string;
  status: string;
  model: 'swift' | 'precision';
  quads: boolean;
  input_asset: string;
  output_asset: string;
  /** Why the input mesh could not be used or retopologised (the session failed). */
  input_error?: string;
  /** The retopology, once made (it runs when the input has been read): its files, shown once the session completes. */
  made?: { obj: Output; image: Output; glb?: Output; faces: number; quads: number; triangles: number };
  fails: boolean;
  /** Reported while it runs, when a session-status fault rule says so. */
  running_status?: string;
  obj?: Output;
  image?: Output;
  /** The result as a GLB (records from before GLBs were made have none). */
  glb?: Output;
  created_at: string;
  updated_at: string;
}

/**
 * Most faces of the result (a quad and a triangle count one each): swift gives light meshes (up to 8K faces,
 * as the service states: never more), precision dense ones that keep the input's detail. An input with fewer
 * faces keeps them (no face is added).
 */
const FACES = { swift: 8_000, precision: 30_000 } as const;
const IMAGE_SIZE = 512;

/** A create request whose type is retopology (POST /v3/sessions takes other types too: see v3.ts). */
export type RetopologyCall = Omit<Call<'createRetopology'>, 'body'> & { body: CreateRetopologyRequest };

export function retopologyHandlers(s: EngineContext): {
  createRetopology(call: RetopologyCall): ReturnType<Handler<'createRetopology'>>;
  getV3Session: Handler<'getV3Session'>;
} {
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
            type: 'mesh',
            // glb_url beside obj_url and image_url: the vendor's eval script (3devals) reads a mesh's glb_url.
            data: {
              glb_url: s.files.url(rec.glb, now),
              obj_url: s.files.url(rec.obj, now),
              image_url: s.files.url(rec.image, now),
            },
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
      if (asset.input !== undefined && asset.input.kind === undefined)
        s.inputs.read(asset.input, 'mesh', `${asset._id}/mesh`);
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
        ...createdAt(now),
      };
      await keepNew(s, s.state.retopology, rec._id, rec);
      return present(rec, now);
    },

    async getV3Session({ userId, now, params }) {
      const rec = findOwned(s.state.retopology, params.session_id!, userId);
      const finishing = withEndFaults(
        s,
        (r: RetopologyRecord) => r._id,
        (r: RetopologyRecord, step: StepName, at: number) => finish(s, r, step, at),
      );
      const input = s.state.assets[rec.input_asset]!;
      await refresh(
        s,
        () => [rec],
        () =>
          inputGate(rec, input.input, failOnInput) ??
          retopologyGate(s, rec, input) ??
          settle(rec, s.clock, now, finishing),
        () => [rec.obj, rec.image, rec.glb],
      );
      return present(rec, now);
    },
  };
}

/**
 * The asset a request names: a mesh asset of the account (the input of an earlier retopology, or a mesh an
 * image_to_3d or image_to_kit session made, once complete), or a new asset for a GLB URL.
 */
function inputAsset(s: EngineContext, mesh: string, userId: string): AssetRecord {
  if (mesh.startsWith(ASSET_PREFIX)) {
    const known = ownAsset(s, mesh, userId, 'input.mesh');
    if (known.kind === 'image')
      throw new HttpError(
        400,
        `input.mesh: ${mesh} is an image asset, not a mesh; give a GLB URL or the id of a mesh asset`,
      );
    const status = assetStatus(known);
    if (status !== 'complete') {
      throw new HttpError(
        400,
        `input.mesh: the mesh asset ${mesh} is ${status}: wait until the session that makes it is complete (or give a GLB URL)`,
      );
    }
    return known;
  }
  const name = new URL(mesh).pathname.split('/').pop() || 'mesh.glb';
  return { _id: newAssetId(), name, user_id: userId, glb_url: mesh, kind: 'mesh', input: { url: mesh } };
}

/**
 * What comes before settling a running session whose input has been read: its retopology. Asked for (once)
 * until it is made; meanwhile the session keeps running whatever its clock says. A made retopology lets the
 * steps settle as usual; one that could not be made fails the session with why. Undefined when the steps
 * settle as usual, else whether the record changed (see inputGate).
 */
function retopologyGate(s: EngineContext, rec: RetopologyRecord, input: AssetRecord): boolean | undefined {
  if (rec.step === undefined || rec.fails || rec.made !== undefined) return undefined;
  const work = {
    folder: `${rec._id}/retopology`,
    image: `${rec._id}/retopology.png`,
    glb: `${rec._id}/retopology.glb`,
    faces: FACES[rec.model],
    quads: rec.quads,
    imageSize: IMAGE_SIZE,
    input: () => readInput(s, input),
    describe: input.input === undefined ? `The mesh asset ${input._id}` : describeInput(input.input, 'mesh'),
  };
  s.retopologies.start(rec._id, work, async (outcome: RetopologyOutcome) => {
    if (rec.step === undefined) return;
    if ('error' in outcome) {
      delete rec.step;
      failOnInput(rec, outcome.error, Date.now());
    } else {
      rec.made = {
        obj: outcome.obj,
        image: outcome.image,
        ...(outcome.glb !== undefined && { glb: outcome.glb }),
        faces: outcome.stats.faces,
        quads: outcome.stats.quads,
        triangles: outcome.stats.triangles,
      };
    }
    await s.save(rec);
  });
  return false;
}

/**
 * Where the input mesh is read from (the retopology's worker reads it as one triangle mesh): the stored bytes of
 * a URL (GLB, glTF, OBJ), the GLB of a mesh asset the engine made, or, for one of the engine's own FBX, USDZ or
 * OBJ files given by URL, the GLB of the same model (made from the recipe that file was made from).
 */
async function readInput(s: EngineContext, asset: AssetRecord): Promise<RetopologySource> {
  if (asset.kind === 'made-mesh' && asset.files !== undefined) {
    await s.files.ensure([asset.files.glb]);
    return { path: s.files.path(asset.files.glb.key) };
  }
  const stored = asset.input?.file;
  const own = () => ownModelGlb(s, asset.glb_url);
  if (stored !== undefined) {
    const extension = extname(stored.key).slice(1);
    const glb = extension === 'fbx' || extension === 'usdz' || extension === 'obj' ? own() : undefined;
    return glb === undefined ? { path: s.files.path(stored.key) } : { recipe: glb, root: s.files.root };
  }
  const glb = own();
  if (glb !== undefined) return { recipe: glb, root: s.files.root };
  throw new UnreadableMesh(
    'was given before this engine read its inputs, and is not one of its own files: create the retopology again',
  );
}

/** The recipe of the GLB of the model a file URL of this engine (signed by it, whatever its port then) was made from; undefined for other URLs. */
function ownModelGlb(s: EngineContext, given: string): Recipe | undefined {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return undefined;
  }
  const named = signedFileUrl(url, s.files);
  if (named === undefined) return undefined;
  for (const file of outputsIn(s.state)) {
    if (file.key !== named.key) continue;
    return glbRecipeOf(file.recipe);
  }
  return undefined;
}

/** The recipe of the GLB of the same model as a mesh file's recipe. */
function glbRecipeOf(recipe: Recipe): Recipe | undefined {
  switch (recipe.type) {
    case 'glb':
    case 'obj':
    case 'obj-zip':
    case 'fbx':
    case 'usdz':
      return { type: 'glb', mesh: recipe.mesh, texture: true };
    case 'picture-glb':
    case 'picture-obj':
    case 'picture-obj-zip':
    case 'picture-fbx':
    case 'picture-usdz':
      return { type: 'picture-glb', model: recipe.model };
    case 'multiview-glb':
    case 'multiview-obj':
    case 'multiview-fbx':
    case 'multiview-usdz':
      return { type: 'multiview-glb', model: recipe.model };
    default:
      return undefined;
  }
}

/** An input mesh that cannot be used ends the session failed, with why. */
function failOnInput(rec: RetopologyRecord, message: string, at: number): void {
  rec.status = 'failed';
  rec.input_error = message;
  rec.updated_at = iso(at);
}

function finish(_s: EngineContext, rec: RetopologyRecord, _step: StepName, endedAt: number): void {
  rec.updated_at = iso(endedAt);
  if (rec.fails) {
    rec.status = 'failed';
    return;
  }
  if (rec.made === undefined) {
    // Not reached: the step settles once the retopology is made (see retopologyGate).
    rec.status = 'failed';
    rec.input_error = 'The retopology was not made.';
    return;
  }
  rec.status = 'complete';
  rec.obj = rec.made.obj;
  rec.image = rec.made.image;
  if (rec.made.glb !== undefined) rec.glb = rec.made.glb;
}
