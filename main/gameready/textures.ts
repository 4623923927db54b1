// A model's textures brought to a profile: each map resized to fit the profile's largest size (aspect kept, never
// enlarged) and written in its format, by gltf-transform's textureCompress with sharp (libvips, Lanczos 3) — no
// resampler of our own. Colour maps (base colour, emissive) stay sRGB and may be lossy; data maps (normal,
// metallic/roughness, occlusion) stay linear and lossless where the format allows it (lossless WebP; PNG where
// the profile says JPEG, whose chroma subsampling and blocks would bend normals), so they stay what they measure.
// Also Unity's metallic/smoothness map, made from glTF's metallic/roughness map.
import { type Document, ImageUtils, type Texture } from '@gltf-transform/core';
import { listTextureSlots, textureCompress } from '@gltf-transform/functions';
import sharp from 'sharp';
import type { TextureFormat } from '../../shared/target-profiles.ts';

const COLOUR_SLOTS = /^(baseColorTexture|emissiveTexture)$/;
const DATA_SLOTS = /^(normalTexture|metallicRoughnessTexture|occlusionTexture)$/;

export interface TextureReport {
  /** The texture's name or URI, else its slots. */
  name: string;
  slots: string[];
  from: [number, number];
  to: [number, number];
  mimeType: string;
}

/** Resizes and re-encodes the document's textures (see the module comment); what each became. */
export async function fitTextures(doc: Document, maxSize: number, format: TextureFormat): Promise<TextureReport[]> {
  const textures = doc.getRoot().listTextures();
  const before = new Map(textures.map((t) => [t, sizeOf(t)]));
  const resize: [number, number] = [maxSize, maxSize];
  await doc.transform(
    textureCompress({ encoder: sharp, resize, targetFormat: format, slots: COLOUR_SLOTS }),
    textureCompress({
      encoder: sharp,
      resize,
      targetFormat: format === 'jpeg' ? 'png' : format,
      slots: DATA_SLOTS,
      lossless: true,
    }),
  );
  return textures.map((t) => {
    const slots = listTextureSlots(t);
    return {
      name: t.getName() || t.getURI() || slots.join('+'),
      slots,
      from: before.get(t) ?? [0, 0],
      to: sizeOf(t),
      mimeType: t.getMimeType(),
    };
  });
}

function sizeOf(t: Texture): [number, number] {
  const image = t.getImage();
  const size = image ? ImageUtils.getSize(image, t.getMimeType()) : null;
  return size ? [size[0], size[1]] : [0, 0];
}

/**
 * Unity's metallic/smoothness map (Standard and URP Lit: metallic in R, smoothness in A) of a glTF
 * metallic/roughness map (roughness in G, metallic in B): R = G = B = metallic (a DCC that reads it as a grey
 * metallic map sees the same), A = 1 − roughness. A PNG, at the map's size; sharp decodes and encodes.
 */
export async function metallicSmoothnessPng(metallicRoughness: Uint8Array): Promise<Uint8Array> {
  const { data, info } = await sharp(metallicRoughness).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const out = Buffer.alloc(info.width * info.height * 4);
  for (let i = 0, o = 0; i < data.length; i += info.channels, o += 4) {
    const metal = data[i + 2]!;
    out[o] = metal;
    out[o + 1] = metal;
    out[o + 2] = metal;
    out[o + 3] = 255 - data[i + 1]!;
  }
  const png = await sharp(out, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png()
    .toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
