// /v3 sessions of type image_to_3d and image_to_kit, with the input the vendor's public scripts send:
// `{image, model, settings: {geometry_model, texture_model, resolution}}` (and `decomposition_model` for a kit).
// The image becomes an image asset (its id may be given again as the image of a later session); the meshes
// made are mesh assets (GLB, OBJ, FBX, USDZ and a preview image) that retopology accepts by their ASSET_ id.
import {
  ASSET_PREFIX,
  type CreateImageTo3dV3Request,
  type CreateImageToKitV3Request,
} from '../../../shared/contract/index.ts';
import type { CreateMultiviewV3Request } from '../accepted.ts';
import { objInFolder, output, pictureObjInFolder, type Output } from '../artifacts.ts';
import type { MultiviewMesh } from '../generate/visual-hull.ts';
import type { EngineContext } from '../context.ts';
import { charge } from '../credits.ts';
import { HttpError } from '../http.ts';
import { createdAt, iso, newAssetId, newSessionCode } from '../ids.ts';
import type { MeshKind, MeshOptions } from '../outputs/index.ts';
import { settle, type Stepped, type StepName } from '../progress.ts';
import type { Call, Handler } from '../router.ts';
import { assetFiles, ownAsset, presentAsset, type AssetRecord } from './assets.ts';
import type { PictureMesh } from '../generate/mesh-options.ts';
import { findOwned, inputGate, keepNew, refresh, storeImage } from './common.ts';
import { pictureProblem, storedPicture } from './picture-input.ts';

export type GenerationRequest = CreateImageTo3dV3Request | CreateImageToKitV3Request | CreateMultiviewV3Request;

export interface GenerationRecord extends Stepped {
  _id: string;
  user_id: string;
  type: GenerationRequest['type'];
  status: 'incomplete' | 'complete' | 'failed';
  /** The input image (multiview_to_3d: the first, the front view). */
  image_asset: string;
  /** multiview_to_3d: every input image, the front view first, then the side view. */
  image_assets?: string[];
  model: string;
  decomposition_model?: string;
  /** The settings as given (defaults filled in), echoed in the session. */
  settings: GenerationRequest['input']['settings'];
  /** image_to_3d: the one mesh; image_to_kit: the whole kit. */
  mesh_assets: string[];
  /** image_to_kit: its parts. */
  part_assets: string[];
  /** image_to_3d and multiview_to_3d: the (front) picture with its background transparent, once made. */
  segmented?: Output;
  /** Why the image could not be used (the session failed). */
  input_error?: string;
  created_at: string;
  updated_at: string;
}

const FACES = { low_poly: 2_000, high_poly: 20_000 } as const;
/** Faces when `settings.resolution` is not given. */
const DEFAULT_FACES = FACES.high_poly;
const PREVIEW_SIZE = 512;

export type GenerationCall = Omit<Call<'createRetopology'>, 'body'> & { body: GenerationRequest };

export function generationHandlers(s: EngineContext): {
  create(call: GenerationCall): ReturnType<Handler<'createRetopology'>>;
  get: Handler<'getV3Session'>;
  has(id: string): boolean;
} {
  const asset = (id: string) => s.state.assets[id]!;

  function present(rec: GenerationRecord, now: number) {
    const mesh = (id: string) => presentAsset(s, asset(id), now);
    return {
      _id: rec._id,
      user_id: rec.user_id,
      status: rec.step ? 'incomplete' : rec.status,
      type: rec.type,
      ...(rec.input_error !== undefined && rec.step === undefined && { error: rec.input_error }),
      input: {
        ...(rec.image_assets !== undefined
          ? { images: rec.image_assets.map((id) => presentAsset(s, asset(id), now)) }
          : { image: presentAsset(s, asset(rec.image_asset), now) }),
        model: rec.model,
        ...(rec.decomposition_model !== undefined && { decomposition_model: rec.decomposition_model }),
        settings: rec.settings,
      },
      // image_to_3d: the mesh in `meshes` (what the vendor's README shows and public clients read as
      // output.meshes[0].data) and, the same asset, in `mesh`.
      output:
        rec.type !== 'image_to_kit'
          ? {
              segmented_image_url: rec.step === undefined ? s.files.url(rec.segmented, now) : '',
              mesh: mesh(rec.mesh_assets[0]!),
              meshes: rec.mesh_assets.map(mesh),
            }
          : { part_images: [], meshes: rec.mesh_assets.map(mesh), part_meshes: rec.part_assets.map(mesh) },
      created_at: rec.created_at,
      updated_at: rec.updated_at,
    };
  }

  return {
    has: (id) => Object.hasOwn(s.state.generations, id),

    async create({ userId, now, body }) {
      const given = body.type === 'multiview_to_3d' ? body.input.images : [body.input.image];
      const known = given.map((image) =>
        image.startsWith(ASSET_PREFIX) ? imageAsset(s, image, userId, body.type === 'multiview_to_3d') : undefined,
      );
      charge(s, userId, 'createRetopology'); // every /v3 session costs the same
      const id = newSessionCode();
      const images: AssetRecord[] = [];
      for (const [i, image] of given.entries()) {
        const imageRecord = known[i] ?? (await newImageAsset(s, userId, image));
        if (known[i] === undefined) s.inputs.read(imageRecord.image!, 'image', `${imageRecord._id}/image`);
        s.state.assets[imageRecord._id] = imageRecord;
        images.push(imageRecord);
      }
      const imageRecord = images[0]!;
      const made = (name: string): AssetRecord => {
        const rec: AssetRecord = {
          _id: newAssetId(),
          name,
          user_id: userId,
          glb_url: '',
          kind: 'made-mesh',
          status: 'incomplete',
        };
        s.state.assets[rec._id] = rec;
        return rec;
      };
      const kit = body.type === 'image_to_kit';
      const rec: GenerationRecord = {
        _id: id,
        user_id: userId,
        type: body.type,
        status: 'incomplete',
        image_asset: imageRecord._id,
        ...(body.type === 'multiview_to_3d' && { image_assets: images.map((a) => a._id) }),
        model: body.input.model,
        ...(body.type === 'image_to_kit' && { decomposition_model: body.input.decomposition_model }),
        settings: body.input.settings,
        mesh_assets: [made(kit ? 'kit' : 'mesh')._id],
        part_assets: kit ? Array.from({ length: partCount(id) }, (_, i) => made(`part_${i + 1}`)._id) : [],
        step: { name: 'mesh', startedAt: now },
        ...createdAt(now),
      };
      await keepNew(s, s.state.generations, id, rec);
      return present(rec, now);
    },

    async get({ userId, now, params }) {
      const rec = findOwned(s.state.generations, params.session_id!, userId);
      const assets = () => [
        ...[...rec.mesh_assets, ...rec.part_assets].flatMap((id) => assetFiles(asset(id))),
        ...(rec.segmented === undefined ? [] : [rec.segmented]),
      ];
      const fail = (r: GenerationRecord, message: string, at: number) => failOnInput(s, r, message, at);
      const inputs = (rec.image_assets ?? [rec.image_asset]).map((id) => asset(id).image);
      const pictureGate = () => {
        const problem =
          rec.step === undefined
            ? undefined
            : inputs.map((image) => pictureProblem(s, image)).find((p) => p !== undefined);
        if (problem === undefined) return undefined;
        delete rec.step;
        fail(rec, problem, now);
        return true;
      };
      await refresh(
        s,
        // settling fails or completes its mesh assets too
        () => [rec, ...[...rec.mesh_assets, ...rec.part_assets].map(asset)],
        () =>
          inputs.reduce<boolean | undefined>((gate, image) => gate ?? inputGate(rec, image, fail), undefined) ??
          pictureGate() ??
          settle(rec, s.clock, now, (r, step, at) => finish(s, r, step, at)),
        assets,
      );
      return present(rec, now);
    },
  };
}

/** An image asset of the account given again as the image of a session. */
function imageAsset(s: EngineContext, id: string, userId: string, many = false): AssetRecord {
  const known = ownAsset(s, id, userId, many ? 'input.images' : 'input.image');
  if (known.kind !== 'image')
    throw new HttpError(
      400,
      `input.image: ${id} is a mesh asset, not an image; give an image URL, a data URI or the id of an image asset`,
    );
  return known;
}

async function newImageAsset(s: EngineContext, userId: string, value: string): Promise<AssetRecord> {
  const id = newAssetId();
  const ref = await storeImage(s, id, 'image', value);
  const name =
    ref.url !== undefined
      ? new URL(ref.url).pathname.split('/').pop() || 'image'
      : ref.file!.key.slice(ref.file!.key.lastIndexOf('/') + 1);
  return { _id: id, name, user_id: userId, glb_url: '', kind: 'image', image: ref };
}

/** A kit has 3 to 5 parts, decided by its id. */
function partCount(id: string): number {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return 3 + (h % 3);
}

function faces(settings: GenerationRequest['input']['settings']): number {
  const r = settings.resolution;
  return typeof r === 'number' ? r : r === undefined ? DEFAULT_FACES : FACES[r];
}

/** Where a mesh asset's preview image is rendered from: three-quarters from above. */
const PREVIEW_VIEW = { size: PREVIEW_SIZE, yaw: Math.PI / 6, pitch: Math.PI / 12 };

/** The files of a mesh asset made from the picture; its preview image is a render of the model, three-quarters from above. */
function makeFromPicture(asset: AssetRecord, owner: string, model: PictureMesh): void {
  const name = asset.name;
  const files: Record<'glb' | 'obj' | 'fbx' | 'usdz' | 'image', Output> = {
    glb: output(owner, name, { type: 'picture-glb', model }),
    obj: pictureObjInFolder(owner, name, model),
    fbx: output(owner, name, { type: 'picture-fbx', model }),
    usdz: output(owner, name, { type: 'picture-usdz', model }),
    image: output(owner, `${name}-preview`, { type: 'render', model, ...PREVIEW_VIEW }),
  };
  asset.files = files;
  asset.status = 'complete';
}

/** The files of a mesh asset made from a front and a side view (visual-hull.ts); its preview is a render, three-quarters from above. */
function makeFromViews(asset: AssetRecord, owner: string, model: MultiviewMesh): void {
  const name = asset.name;
  asset.files = {
    glb: output(owner, name, { type: 'multiview-glb', model }),
    obj: output(owner, `${name}/mesh`, { type: 'multiview-obj', model }),
    fbx: output(owner, name, { type: 'multiview-fbx', model }),
    usdz: output(owner, name, { type: 'multiview-usdz', model }),
    image: output(owner, `${name}-preview`, { type: 'multiview-render', model, ...PREVIEW_VIEW }),
  };
  asset.status = 'complete';
}

/** An image that cannot be used ends the session failed (with why), and the meshes it was to make too. */
function failOnInput(s: EngineContext, rec: GenerationRecord, message: string, at: number): void {
  rec.status = 'failed';
  rec.input_error = message;
  rec.updated_at = iso(at);
  for (const id of [...rec.mesh_assets, ...rec.part_assets]) s.state.assets[id]!.status = 'failed';
}

function finish(s: EngineContext, rec: GenerationRecord, _step: StepName, endedAt: number): void {
  rec.updated_at = iso(endedAt);
  rec.status = 'complete';
  const texture = rec.settings.texture_model !== 'none';
  const total = faces(rec.settings);
  const make = (assetId: string, mesh: MeshOptions) => {
    const asset = s.state.assets[assetId]!;
    const name = asset.name;
    asset.files = {
      glb: output(rec._id, name, { type: 'glb', mesh, texture }),
      obj: objInFolder(rec._id, name, mesh, texture),
      fbx: output(rec._id, name, { type: 'fbx', mesh, texture }),
      usdz: output(rec._id, name, { type: 'usdz', mesh }),
      image: output(rec._id, `${name}-preview`, { type: 'image', seed: `${rec._id}:${name}`, size: PREVIEW_SIZE }),
    };
    asset.status = 'complete';
  };
  const seed = `${rec.image_asset}:${rec._id}`;
  const picture = storedPicture(s.state.assets[rec.image_asset]!.image);
  if (picture !== undefined && rec.type !== 'image_to_kit')
    rec.segmented = output(rec._id, 'segmented', { type: 'segmented', picture });
  const side =
    rec.image_assets?.[1] === undefined ? undefined : storedPicture(s.state.assets[rec.image_assets[1]]!.image);
  for (const id of rec.mesh_assets) {
    if (rec.type === 'multiview_to_3d' && picture !== undefined && side !== undefined) {
      makeFromViews(s.state.assets[id]!, rec._id, {
        front: picture,
        side,
        faces: total,
        quads: (rec.settings as { topology?: unknown }).topology === 'quads',
        texture: rec.settings.texture_model ?? 'none',
      });
      continue;
    }
    // The mesh from the stored picture; records from before inputs were stored keep the seeded mesh.
    if (picture !== undefined)
      makeFromPicture(s.state.assets[id]!, rec._id, {
        picture,
        faces: total,
        quads: false,
        texture: rec.settings.texture_model ?? 'none',
      });
    else make(id, { seed, targetFaces: total });
  }
  const kinds: MeshKind[] = ['box', 'rock'];
  rec.part_assets.forEach((id, i) => {
    make(id, {
      seed: `${seed}:part:${i}`,
      kind: kinds[i % kinds.length]!,
      targetFaces: Math.max(100, Math.round(total / rec.part_assets.length)),
    });
  });
}
