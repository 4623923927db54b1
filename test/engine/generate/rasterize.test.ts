import { describe, expect, it } from 'vitest';
import { buildPictureModel, type PictureModel } from '../../../main/engine/generate/picture-model.ts';
import { renderModel } from '../../../main/engine/generate/rasterize.ts';
import { segmentSubject } from '../../../main/engine/generate/segment.ts';
import { bounds } from '../../../main/formats/glb.ts';
import { alphaMask, iou, picture, type Picture, pictureSpec } from './fixtures.ts';

const spec = pictureSpec;

/** The model seen from the front, drawn over the picture's own pixels (its silhouette's box on the subject's box). */
function frontOnPicture(model: PictureModel, width: number, height: number, flat: boolean): Uint8Array {
  const { min, max } = bounds(model.mesh.positions);
  const { box } = model.segmentation;
  const scale = (box.x1 - box.x0) / (max[0] - min[0]);
  const texture = model.atlas && { width: model.atlas.width, height: model.atlas.height, data: model.atlas.baseColor };
  return renderModel(model.mesh, texture, model.color, {
    width,
    height,
    flat,
    background: [0, 0, 0, 0],
    view: { scale, ox: box.x0 - min[0] * scale, oy: box.y0 + max[1] * scale },
  });
}

const coverage = (rgba: Uint8Array) =>
  Uint8Array.from({ length: rgba.length / 4 }, (_, i) => (rgba[i * 4 + 3]! > 0 ? 1 : 0));

describe('the front view of the model', () => {
  it.each([
    ['chair.png', 2_000, 0.93],
    ['chair.png', 20_000, 0.97],
    ['robot.png', 2_000, 0.9],
    ['robot.png', 20_000, 0.95],
  ] as const)(
    "%s at %d faces is the picture's silhouette (overlap with its alpha mask above %d)",
    (name: Picture, faces, least) => {
      const image = picture(name);
      const model = buildPictureModel(spec({ faces }), image);
      const seen = coverage(frontOnPicture(model, image.width, image.height, true));
      expect(iou(seen, alphaMask(image))).toBeGreaterThan(least);
    },
  );

  it('fox.jpg is the silhouette found on its backdrop', () => {
    const image = picture('fox.jpg');
    const model = buildPictureModel(spec({ faces: 20_000 }), image);
    const seen = coverage(frontOnPicture(model, image.width, image.height, true));
    expect(iou(seen, segmentSubject(image).mask.data)).toBeGreaterThan(0.95);
  });

  it.each(['chair.png', 'fox.jpg'] as const)("%s shows the picture's colours where the picture has them", (name) => {
    const image = picture(name);
    const model = buildPictureModel(spec({ faces: 20_000 }), image);
    const seen = frontOnPicture(model, image.width, image.height, true);
    const mask = segmentSubject(image).mask.data;
    let compared = 0;
    let error = 0;
    for (let i = 0; i < mask.length; i++) {
      if (mask[i] !== 1 || seen[i * 4 + 3] === 0) continue;
      for (let k = 0; k < 3; k++) error += Math.abs(seen[i * 4 + k]! - image.data[i * 4 + k]!);
      compared += 3;
    }
    expect(compared / 3).toBeGreaterThan(0.9 * model.segmentation.area);
    expect(error / compared).toBeLessThan(12); // mean difference per channel, of 255
  });
});

describe('spin views', () => {
  it('show the model from the front, right, back and left: narrow from the sides, mirrored and dimmed from behind', () => {
    const model = buildPictureModel(spec(), picture('chair.png'));
    const texture = { width: model.atlas!.width, height: model.atlas!.height, data: model.atlas!.baseColor };
    const views = [0, 1, 2, 3].map((i) =>
      renderModel(model.mesh, texture, model.color, {
        width: 256,
        height: 256,
        yaw: (i * Math.PI) / 2,
        background: [0, 0, 0, 0],
        margin: 0.05,
      }),
    );
    const widths = views.map((v) => {
      const cols = new Set<number>();
      for (let p = 0; p < 256 * 256; p++) if (v[p * 4 + 3]! > 0) cols.add(p % 256);
      return cols.size;
    });
    expect(widths[1]! / widths[0]!).toBeLessThan(0.5);
    expect(widths[3]! / widths[0]!).toBeLessThan(0.5);
    expect(Math.abs(widths[2]! - widths[0]!)).toBeLessThanOrEqual(2);
    const mean = (v: Uint8Array) => {
      let sum = 0;
      let n = 0;
      for (let p = 0; p < 256 * 256; p++)
        if (v[p * 4 + 3]! > 0) (sum += v[p * 4]! + v[p * 4 + 1]! + v[p * 4 + 2]!), n++;
      return sum / n;
    };
    expect(mean(views[2]!)).toBeLessThan(0.75 * mean(views[0]!));
    // From behind, the front view's left half is on the right: coverage mirrored.
    const mirrored = new Uint8Array(256 * 256);
    for (let p = 0; p < 256 * 256; p++)
      mirrored[p] = views[2]![(Math.floor(p / 256) * 256 + 255 - (p % 256)) * 4 + 3]! > 0 ? 1 : 0;
    expect(iou(mirrored, coverage(views[0]!))).toBeGreaterThan(0.95);
  });
});
