// A text-to-image picture: the scene read from the prompt (words.ts) drawn with the 2D rasteriser (draw.ts):
// sky and ground gradients for the light, the named objects standing on the ground with their shading and soft
// shadows, then the light's tint and the style's palette. A geometric stand-in, not a generative model.
import { seededRandom } from '../outputs/seeded.ts';
import { encodePng } from '../../formats/png.ts';
import { Canvas, mix, scale } from './draw.ts';
import { applyPalette } from './palette.ts';
import { COLOURS, readPrompt, type Light, type Rgb, type SceneObject, type ShapeKind } from './words.ts';

interface Sky {
  top: Rgb;
  horizon: Rgb;
  /** The light's colour, multiplied into the picture by `amount`. */
  tint: Rgb;
  amount: number;
  /** Where the light comes from, in picture coordinates (x right, y down, z towards the viewer). */
  direction: [number, number, number];
}

const SKIES: Record<Light, Sky> = {
  day: {
    top: [0.35, 0.6, 0.92],
    horizon: [0.78, 0.88, 0.98],
    tint: [1, 1, 1],
    amount: 0,
    direction: [-0.5, -0.6, 0.62],
  },
  sunset: {
    top: [0.3, 0.18, 0.42],
    horizon: [1, 0.52, 0.22],
    tint: [1.15, 0.82, 0.6],
    amount: 0.4,
    direction: [0.85, -0.15, 0.5],
  },
  sunrise: {
    top: [0.5, 0.6, 0.88],
    horizon: [1, 0.74, 0.5],
    tint: [1.1, 0.95, 0.82],
    amount: 0.25,
    direction: [-0.85, -0.2, 0.5],
  },
  night: {
    top: [0.01, 0.02, 0.08],
    horizon: [0.08, 0.1, 0.25],
    tint: [0.45, 0.55, 0.95],
    amount: 0.55,
    direction: [0.4, -0.7, 0.6],
  },
  overcast: {
    top: [0.55, 0.57, 0.6],
    horizon: [0.78, 0.79, 0.8],
    tint: [0.88, 0.9, 0.93],
    amount: 0.25,
    direction: [0, -0.9, 0.45],
  },
};

const ALL_SHAPES: ShapeKind[] = ['ball', 'box', 'house', 'tree', 'mountain', 'tower', 'car', 'star', 'flower', 'cone'];

/** The picture of a prompt, `size` pixels square, as a PNG; with a palette, moved towards the style's colours. */
export function paintPrompt(prompt: string, palette: Rgb[], size: number): Buffer {
  return encodePng(size, size, paintPromptRgba(prompt, palette, size));
}

export function paintPromptRgba(prompt: string, palette: Rgb[], size: number): Uint8Array {
  const scene = readPrompt(prompt);
  const random = seededRandom(prompt.trim().toLowerCase());
  const sky = SKIES[scene.light];
  const canvas = new Canvas(size, size);
  const horizon = size * (0.55 + 0.08 * random());

  canvas.verticalGradient(0, horizon, jitter(sky.top, random), sky.horizon);
  drawSkyLight(canvas, scene.light, horizon, random);
  const groundColour = scene.ground?.colour ?? mix([0.55, 0.5, 0.42], [random(), random(), random()], 0.25);
  canvas.verticalGradient(horizon, size, mix(groundColour, sky.horizon, 0.25), scale(groundColour, 0.7));
  if (scene.ground?.kind === 'water') waves(canvas, horizon, random);

  const objects: SceneObject[] = scene.objects.length > 0 ? scene.objects : [subjectOf(scene.loneColour, random)];
  // mountains stand behind, stars in the sky, the rest on the ground in front, larger ones first
  const order = [...objects.keys()].sort((a, b) => depth(objects[a]!) - depth(objects[b]!));
  const slots = objects.length;
  for (const i of order) {
    const object = objects[i]!;
    const slot =
      object.place === 'left'
        ? 0.26
        : object.place === 'right'
          ? 0.74
          : object.place === 'center'
            ? 0.5
            : (i + 1) / (slots + 1);
    const x = size * (slot + (random() - 0.5) * 0.06);
    const unit = (size * 0.2 * object.scale) / Math.sqrt(Math.max(1, slots * 0.6));
    const base =
      object.shape === 'mountain' ? horizon + unit * 0.1 : horizon + (size - horizon) * (0.45 + 0.2 * random());
    drawObject(canvas, object, x, base, unit, sky, random);
  }
  canvas.tint(sky.tint, sky.amount);
  applyPalette(canvas.rgb, palette);
  return canvas.toRgba();
}

const depth = (o: SceneObject) => (o.shape === 'star' ? 0 : o.shape === 'mountain' ? 1 : 2);

/** With no shape named, the subject is drawn from the prompt (the colour it names, if any). */
function subjectOf(colour: Rgb | undefined, random: () => number): SceneObject {
  const shape = ALL_SHAPES[Math.floor(random() * ALL_SHAPES.length)]!;
  const hues = Object.values(COLOURS);
  return {
    shape,
    colour: colour ?? hues[Math.floor(random() * hues.length)]!,
    named: colour !== undefined,
    scale: 1.2,
  };
}

function jitter(c: Rgb, random: () => number): Rgb {
  return [c[0] + (random() - 0.5) * 0.08, c[1] + (random() - 0.5) * 0.08, c[2] + (random() - 0.5) * 0.08];
}

/** The sun low and large at sunset and sunrise, small and high by day, the moon and stars at night. */
function drawSkyLight(canvas: Canvas, light: Light, horizon: number, random: () => number): void {
  const w = canvas.width;
  const flat = (c: Rgb) => () => c;
  switch (light) {
    case 'sunset':
    case 'sunrise': {
      const x = light === 'sunset' ? w * (0.72 + 0.15 * random()) : w * (0.12 + 0.15 * random());
      canvas.ellipse(x, horizon - w * 0.06, w * 0.16, w * 0.16, flat([1, 0.62, 0.3]));
      canvas.ellipse(x, horizon - w * 0.06, w * 0.08, w * 0.08, flat([1, 0.8, 0.45]));
      break;
    }
    case 'day':
      canvas.ellipse(w * (0.1 + 0.2 * random()), w * 0.12, w * 0.06, w * 0.06, flat([1, 0.97, 0.75]));
      for (let i = 0; i < 3; i++)
        cloud(canvas, w * random(), horizon * (0.15 + 0.5 * random()), w * (0.05 + 0.04 * random()));
      break;
    case 'night':
      for (let i = 0; i < 60; i++)
        canvas.blend(Math.floor(w * random()), Math.floor(horizon * random()), [1, 1, 0.9], 0.5 + 0.5 * random());
      canvas.ellipse(w * (0.7 + 0.2 * random()), w * 0.15, w * 0.05, w * 0.05, flat([0.95, 0.95, 0.85]));
      break;
    case 'overcast':
      for (let i = 0; i < 6; i++)
        cloud(canvas, w * random(), horizon * (0.1 + 0.6 * random()), w * (0.08 + 0.05 * random()));
      break;
  }
}

function cloud(canvas: Canvas, x: number, y: number, r: number): void {
  for (const [dx, dy, k] of [
    [-1, 0.2, 0.8],
    [0, 0, 1],
    [1, 0.2, 0.75],
  ] as const)
    canvas.ellipse(x + dx * r, y + dy * r, r * k, r * k * 0.75, () => [0.96, 0.96, 0.98]);
}

function waves(canvas: Canvas, horizon: number, random: () => number): void {
  for (let i = 0; i < 40; i++) {
    const y = horizon + (canvas.height - horizon) * random();
    const x = canvas.width * random();
    canvas.rect(x, y, x + canvas.width * (0.03 + 0.05 * random()), y + 1.5, () => [0.75, 0.85, 0.95]);
  }
}

/** Lambert shading of a surface whose normal is (nx, ny, nz), under the sky's light. */
function lit(colour: Rgb, sky: Sky, nx: number, ny: number, nz: number): Rgb {
  const [lx, ly, lz] = sky.direction;
  const l = Math.hypot(lx, ly, lz);
  const d = Math.max(0, (nx * lx + ny * ly + nz * lz) / l);
  return scale(colour, 0.38 + 0.72 * d);
}

function drawObject(
  canvas: Canvas,
  o: SceneObject,
  x: number,
  base: number,
  u: number,
  sky: Sky,
  random: () => number,
): void {
  const c = o.colour;
  const shadowX = x - sky.direction[0] * u * 0.5;
  const shadow = (w: number) => canvas.shadow(shadowX, base, w * 1.1, w * 0.25, 0.45);
  const face = (nx: number, ny: number, nz: number) => () => lit(c, sky, nx, ny, nz);
  switch (o.shape) {
    case 'ball': {
      const r = u * 0.75;
      shadow(r);
      canvas.ellipse(x, base - r, r, r, (px, py) => {
        const nx = (px - x) / r;
        const ny = (py - base + r) / r;
        return lit(c, sky, nx, ny, Math.sqrt(Math.max(0, 1 - nx * nx - ny * ny)));
      });
      break;
    }
    case 'box': {
      const s = u * 1.1;
      shadow(s * 0.7);
      canvas.rect(x - s / 2, base - s, x + s / 2, base, face(0, 0, 1));
      canvas.polygon(
        [
          [x - s / 2, base - s],
          [x - s / 4, base - s * 1.25],
          [x + s * 0.75, base - s * 1.25],
          [x + s / 2, base - s],
        ],
        face(0, -1, 0.3),
      );
      canvas.polygon(
        [
          [x + s / 2, base - s],
          [x + s * 0.75, base - s * 1.25],
          [x + s * 0.75, base - s * 0.25],
          [x + s / 2, base],
        ],
        face(1, 0, 0.3),
      );
      break;
    }
    case 'house': {
      const s = u * 1.2;
      shadow(s * 0.7);
      canvas.rect(x - s / 2, base - s * 0.8, x + s / 2, base, face(0, 0, 1));
      canvas.polygon(
        [
          [x - s * 0.62, base - s * 0.8],
          [x, base - s * 1.35],
          [x + s * 0.62, base - s * 0.8],
        ],
        () => lit(o.named ? scale(c, 0.6) : [0.6, 0.2, 0.15], sky, 0, -0.6, 0.8),
      );
      canvas.rect(x - s * 0.1, base - s * 0.4, x + s * 0.1, base, () => [0.3, 0.18, 0.1]);
      canvas.rect(x + s * 0.2, base - s * 0.6, x + s * 0.38, base - s * 0.42, () => [0.95, 0.9, 0.6]);
      break;
    }
    case 'tree': {
      const s = u * 1.2;
      shadow(s * 0.5);
      canvas.rect(x - s * 0.08, base - s * 0.7, x + s * 0.08, base, () => lit([0.4, 0.25, 0.12], sky, 0, 0, 1));
      const r = s * 0.45;
      canvas.ellipse(x, base - s * 0.7 - r * 0.6, r, r, (px, py) => {
        const nx = (px - x) / r;
        const ny = (py - (base - s * 0.7 - r * 0.6)) / r;
        return lit(c, sky, nx, ny, Math.sqrt(Math.max(0, 1 - nx * nx - ny * ny)));
      });
      break;
    }
    case 'mountain': {
      const s = u * 2.4;
      const peak = x + (random() - 0.5) * s * 0.2;
      canvas.polygon(
        [
          [x - s, base],
          [peak, base - s * 0.8],
          [peak, base],
        ],
        face(-0.7, -0.3, 0.6),
      );
      canvas.polygon(
        [
          [peak, base],
          [peak, base - s * 0.8],
          [x + s, base],
        ],
        face(0.7, -0.3, 0.6),
      );
      canvas.polygon(
        [
          [peak - s * 0.2, base - s * 0.64],
          [peak, base - s * 0.8],
          [peak + s * 0.2, base - s * 0.64],
        ],
        () => [0.95, 0.95, 0.97],
      );
      break;
    }
    case 'tower': {
      const s = u;
      shadow(s * 0.4);
      canvas.rect(x - s * 0.3, base - s * 2, x + s * 0.3, base, face(0, 0, 1));
      for (let k = 0; k < 3; k++)
        canvas.rect(
          x - s * 0.3 + k * s * 0.24,
          base - s * 2.15,
          x - s * 0.18 + k * s * 0.24,
          base - s * 2,
          face(0, -0.5, 0.8),
        );
      canvas.rect(x - s * 0.08, base - s * 1.6, x + s * 0.08, base - s * 1.35, () => [0.1, 0.1, 0.12]);
      break;
    }
    case 'car': {
      const s = u * 1.3;
      shadow(s * 0.7);
      canvas.rect(x - s * 0.6, base - s * 0.45, x + s * 0.6, base - s * 0.15, face(0, 0, 1));
      canvas.polygon(
        [
          [x - s * 0.35, base - s * 0.45],
          [x - s * 0.2, base - s * 0.75],
          [x + s * 0.25, base - s * 0.75],
          [x + s * 0.4, base - s * 0.45],
        ],
        face(0, -0.4, 0.9),
      );
      canvas.polygon(
        [
          [x - s * 0.28, base - s * 0.47],
          [x - s * 0.17, base - s * 0.7],
          [x + s * 0.22, base - s * 0.7],
          [x + s * 0.33, base - s * 0.47],
        ],
        () => [0.6, 0.75, 0.85],
      );
      for (const wx of [-0.35, 0.35])
        canvas.ellipse(x + wx * s, base - s * 0.15, s * 0.15, s * 0.15, () => [0.08, 0.08, 0.08]);
      break;
    }
    case 'star': {
      const r = u * 0.6;
      const cy = base - (base - 0) * 0.75;
      const points: [number, number][] = [];
      for (let k = 0; k < 10; k++) {
        const a = -Math.PI / 2 + (k * Math.PI) / 5;
        const rr = k % 2 === 0 ? r : r * 0.45;
        points.push([x + rr * Math.cos(a), cy + rr * Math.sin(a)]);
      }
      canvas.polygon(points, face(0, 0, 1));
      break;
    }
    case 'flower': {
      const s = u;
      canvas.rect(x - s * 0.04, base - s * 1.1, x + s * 0.04, base, () => lit([0.2, 0.55, 0.2], sky, 0, 0, 1));
      const cy = base - s * 1.1;
      for (let k = 0; k < 6; k++) {
        const a = (k * Math.PI) / 3;
        canvas.ellipse(
          x + Math.cos(a) * s * 0.22,
          cy + Math.sin(a) * s * 0.22,
          s * 0.16,
          s * 0.16,
          face(Math.cos(a) * 0.3, Math.sin(a) * 0.3, 0.9),
        );
      }
      canvas.ellipse(x, cy, s * 0.12, s * 0.12, () => [0.95, 0.8, 0.2]);
      break;
    }
    case 'cone': {
      const s = u * 1.2;
      shadow(s * 0.45);
      canvas.polygon(
        [
          [x - s * 0.45, base],
          [x, base - s * 1.3],
          [x, base],
        ],
        face(-0.7, -0.2, 0.7),
      );
      canvas.polygon(
        [
          [x, base],
          [x, base - s * 1.3],
          [x + s * 0.45, base],
        ],
        face(0.7, -0.2, 0.7),
      );
      break;
    }
  }
}
