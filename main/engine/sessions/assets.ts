// Assets: what /v3 sessions read and make, addressed by their ASSET_ id across sessions. An input mesh given
// by URL (retopology), an input image (image_to_3d, image_to_kit), or a mesh the engine made (the outputs of
// image_to_3d and image_to_kit, which later sessions may name as their input).
import { ASSET_PREFIX } from '../../../shared/contract/index.ts';
import type { Output } from '../artifacts.ts';
import type { EngineContext } from '../context.ts';
import { HttpError } from '../http.ts';
import { inputUrl, type InputRef } from './common.ts';

/** The files of a mesh asset the engine made. */
export interface MeshAssetFiles {
  glb: Output;
  obj: Output;
  fbx: Output;
  usdz: Output;
  /** A rendered preview of the mesh. */
  image: Output;
}

export interface AssetRecord {
  _id: string;
  name: string;
  user_id: string;
  /** A mesh given by URL: that URL; '' for assets of other kinds. */
  glb_url: string;
  /** What it holds; records from before kinds were kept are meshes given by URL. */
  kind?: 'mesh' | 'image' | 'made-mesh';
  /** An input image: the URL given or the bytes sent. */
  image?: InputRef;
  /** A mesh given by URL: its bytes once read (records from before inputs were read have none). */
  input?: InputRef;
  /** A mesh the engine makes: its files once made, and how far its session is. */
  files?: MeshAssetFiles;
  status?: 'incomplete' | 'complete' | 'failed';
}

/** The caller's asset `id` (an ASSET_ id), or a 400 naming `field`. */
export function ownAsset(s: EngineContext, id: string, userId: string, field: string): AssetRecord {
  const known = Object.hasOwn(s.state.assets, id) ? s.state.assets[id] : undefined;
  if (!id.startsWith(ASSET_PREFIX) || known === undefined || known.user_id !== userId) {
    throw new HttpError(
      400,
      `${field}: there is no asset ${id}; give a URL, or the id of an asset of an earlier session of this account`,
    );
  }
  return known;
}

/** The status an asset reports: made meshes follow their session; inputs are complete once given. */
export const assetStatus = (asset: AssetRecord): string => asset.status ?? 'complete';

/**
 * An asset as the /v3 sessions show it: `_id`, `name`, `status`, `type` (`image` or `mesh`, as the vendor's
 * examples show) and the URLs of its files in `data`.
 */
export function presentAsset(s: EngineContext, asset: AssetRecord, now: number) {
  const status = assetStatus(asset);
  if (asset.kind === 'image') {
    return {
      _id: asset._id,
      name: asset.name,
      status,
      type: 'image',
      data: { image_url: asset.image ? inputUrl(s, asset.image, now) : '' },
    };
  }
  if (asset.kind === 'made-mesh') {
    const url = (file: Output | undefined) => (status === 'complete' ? s.files.url(file, now) : '');
    const f = asset.files;
    return {
      _id: asset._id,
      name: asset.name,
      status,
      type: 'mesh',
      data: {
        glb_url: url(f?.glb),
        obj_url: url(f?.obj),
        fbx_url: url(f?.fbx),
        usdz_url: url(f?.usdz),
        image_url: url(f?.image),
      },
    };
  }
  return { _id: asset._id, name: asset.name, status, type: 'mesh', data: { glb_url: asset.glb_url } };
}

/** The URL of a mesh asset's GLB: the one given, or a fresh signed URL of the engine's own file. */
export function meshAssetGlbUrl(s: EngineContext, asset: AssetRecord, now: number): string {
  return asset.kind === 'made-mesh' ? s.files.url(asset.files?.glb, now) : asset.glb_url;
}

/** Files of made assets, to register with the file store. */
export function assetFiles(asset: AssetRecord | undefined): Output[] {
  const f = asset?.files;
  return f ? [f.glb, f.obj, f.fbx, f.usdz, f.image] : [];
}
