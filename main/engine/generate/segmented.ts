// The segmented picture of an image_to_3d session (`output.segmented_image_url`, as the vendor's README shows):
// the input picture with everything but its subject transparent, the subject found as the mesh is made from it
// (segment.ts on the picture shrunk to the same working size as picture-model.ts).
import { decodeImage } from '../../images/decode-image.ts';
import { encodePng } from '../../formats/png.ts';
import { downscale } from './raster.ts';
import { segmentSubject } from './segment.ts';

const WORKING_SIDE = 640;

export function segmentedPicture(bytes: Uint8Array): Buffer {
  const { image } = downscale(decodeImage(bytes), WORKING_SIDE);
  const { mask } = segmentSubject(image);
  const data = new Uint8Array(image.data);
  for (let i = 0; i < mask.data.length; i++) if (mask.data[i] !== 1) data[i * 4 + 3] = 0;
  return encodePng(image.width, image.height, data);
}
