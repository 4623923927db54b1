// Where a model is seen from: the named views of every 3D view (Front, Side, Back, Top) and the view it opens
// on, the front three-quarter view, which the library's rendered thumbnails use too. Directions are in glTF's
// frame, the frame of every model file the app reads (OBJ, FBX and USD are read into it too): +Y up, the
// model's front facing +Z, its left side +X. The viewer (renderer/viewer/scene/framing.ts) turns them into its
// orbit camera's angles (Babylon's scene is left-handed: its loaders mirror X, the front stays +Z), the
// thumbnails' software renderer (main/mesh/render.ts) into its eye direction.

/** A direction to look from: `yaw` turns from the front towards the model's left (+X), `elevation` rises above the horizon (radians). */
export interface ViewDirection {
  yaw: number;
  elevation: number;
}

export type ViewName = 'front' | 'side' | 'back' | 'top';

/** The view a model opens on (and the thumbnails show): its front, turned 30° towards its left, from 21° above. */
export const HOME_VIEW: ViewDirection = { yaw: Math.PI / 6, elevation: (21 * Math.PI) / 180 };

/** The named views; Side is the side on the right of the Front view (the model's left), as a turn of the Home view goes on. */
export const VIEWS: Readonly<Record<ViewName, ViewDirection>> = {
  front: { yaw: 0, elevation: 0 },
  side: { yaw: Math.PI / 2, elevation: 0 },
  back: { yaw: Math.PI, elevation: 0 },
  top: { yaw: 0, elevation: Math.PI / 2 },
};

/** The buttons of a 3D view: each named view, its label, its key and what it shows. */
export const VIEW_BUTTONS: readonly { view: ViewName; label: string; key: string; title: string }[] = [
  { view: 'front', label: 'Front', key: 'F', title: 'Front view: the model facing you' },
  {
    view: 'side',
    label: 'Side',
    key: 'S',
    title: "Side view: the model's left side (on your right in the front view)",
  },
  { view: 'back', label: 'Back', key: 'B', title: 'Back view' },
  { view: 'top', label: 'Top', key: 'T', title: 'Top view: from above, the front at the bottom' },
];

/** The unit vector from the model towards the eye, in glTF's frame (x, y, z). */
export function eyeDirection({ yaw, elevation }: ViewDirection): [number, number, number] {
  return [Math.sin(yaw) * Math.cos(elevation), Math.sin(elevation), Math.cos(yaw) * Math.cos(elevation)];
}
