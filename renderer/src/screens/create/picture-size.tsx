// A warning in the image-to-3D form when the picked picture is small (shorter side under SMALL_PICTURE_SIDE):
// a texture cannot hold more detail than its picture, so the form says before sending what the picture can
// give, by the local engine's rule (shared/picture-detail.ts), and what the face budget will spend on it.
import { useEffect, useState } from 'preact/hooks';
import {
  budgetTextureSide,
  LOCAL_RESOLUTION_FACES,
  SMALL_PICTURE_SIDE,
  textureSideFor,
} from '../../../../shared/picture-detail.ts';

type Size = { width: number; height: number };

/** The pixel size of a picture given as a data URI (read by the browser), once known. */
export function usePictureSize(dataUri: string): Size | undefined {
  const [size, setSize] = useState<Size | undefined>();
  useEffect(() => {
    setSize(undefined);
    if (!dataUri) return;
    let current = true;
    const img = new Image();
    img.onload = () => current && setSize({ width: img.naturalWidth, height: img.naturalHeight });
    img.src = dataUri;
    return () => {
      current = false;
    };
  }, [dataUri]);
  return size;
}

export function SmallPictureWarning({
  size,
  resolution,
  texture,
}: {
  size: Size | undefined;
  resolution: keyof typeof LOCAL_RESOLUTION_FACES;
  texture: string;
}) {
  if (!size || Math.min(size.width, size.height) >= SMALL_PICTURE_SIDE) return null;
  const faces = LOCAL_RESOLUTION_FACES[resolution];
  const side = textureSideFor(budgetTextureSide(faces), size);
  return (
    <p class="viewer-warnings small-picture" role="status" data-picture-size={`${size.width}x${size.height}`}>
      This picture is {size.width}×{size.height} px, small for a 3D model: a texture holds no more detail than its
      picture. The local engine sizes its texture to the picture: {side * 2}×{side} px here (each half at most the next
      power of two above the picture's larger side){texture === 'none' ? ', when a texture is asked for' : ''}; and{' '}
      {resolution} still spends up to {faces.toLocaleString('en')} faces on the outline. For a game asset use a picture
      at least {SMALL_PICTURE_SIDE} px on its shorter side{resolution === 'high_poly' ? ', or low_poly' : ''}. (The
      service does not document what it does with a small picture.)
    </p>
  );
}
