// The image-to-3D session an animation's mesh comes from, when its `mesh_url` is a file of one of this engine's
// own image-to-3D sessions of the same account (what "Animate this model" sends: the job's `mesh_url_fbx`): the
// service's animation session carries that link as `image_to_3d_session_code` (empty for an uploaded file).
import type { EngineContext } from '../context.ts';
import { FILES_PREFIX } from '../file-store.ts';

export function imageTo3dSessionOf(s: EngineContext, url: string | undefined, userId: string): string {
  if (url === undefined) return '';
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return '';
  }
  if (!path.startsWith(FILES_PREFIX)) return '';
  const code = decodeURIComponent(path.slice(FILES_PREFIX.length).split('/')[0] ?? '');
  const rec = Object.hasOwn(s.state.imageTo3d, code) ? s.state.imageTo3d[code] : undefined;
  return rec !== undefined && rec.user_id === userId ? code : '';
}
