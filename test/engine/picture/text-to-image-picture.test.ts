// Text-to-image pictures drawn from the prompt's words, through the engine's API: what the words name is in
// the picture (shape, colour, place, light), and a style's zip moves later pictures towards its colours.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { decodeImage, type RgbaImage } from '../../../main/images/decode-image.ts';
import { buildZip } from '../../../main/engine/outputs/index.ts';
import { encodePng } from '../../../main/formats/png.ts';
import { paletteOfZip } from '../../../main/engine/picture/palette.ts';
import { call, completedTextToImage, download, expectSuccess, pollUntil, useTestEngine } from '../helpers.ts';

const engine = useTestEngine();

async function picture(prompt: string, style_id = ''): Promise<RgbaImage> {
  const done = await completedTextToImage(engine, { prompt, style_id });
  const png = await download(done.image_url);
  expect(png.status).toBe(200);
  return decodeImage(png.bytes);
}

type Test = (r: number, g: number, b: number) => boolean;
/** The pixels passing `test`: how many, their centroid and bounding box. */
function region(image: RgbaImage, test: Test, rows: [number, number] = [0, image.height]) {
  let count = 0;
  let sx = 0;
  let sy = 0;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = rows[0]; y < rows[1]; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      if (!test(image.data[i]!, image.data[i + 1]!, image.data[i + 2]!)) continue;
      count++;
      sx += x;
      sy += y;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  }
  return { count, cx: sx / count, cy: sy / count, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

function mean(image: RgbaImage, rows: [number, number] = [0, image.height]): [number, number, number] {
  const sum = [0, 0, 0];
  for (let y = rows[0]; y < rows[1]; y++)
    for (let x = 0; x < image.width; x++)
      for (let c = 0; c < 3; c++) sum[c]! += image.data[(y * image.width + x) * 4 + c]!;
  const n = (rows[1] - rows[0]) * image.width;
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

const red: Test = (r, g, b) => r > 50 && g < 0.35 * r && b < 0.35 * r;
const green: Test = (r, g, b) => g > r && g > b;
const blue: Test = (r, g, b) => b > r + 50 && b > g + 30;
const yellow: Test = (r, g, b) => r > 150 && g > 130 && b < 0.5 * g && Math.abs(r - g) < 70;

describe('text-to-image pictures from the words', () => {
  it('"a red ball on green grass at sunset": a red round region above a green lower band, in warm light', async () => {
    const image = await picture('a red ball on green grass at sunset');
    expect([image.width, image.height]).toEqual([512, 512]);
    const ball = region(image, red);
    expect(ball.count).toBeGreaterThan(5000);
    // round: as wide as high, and filling its bounding box as a disc does (pi/4)
    expect(ball.width / ball.height).toBeGreaterThan(0.85);
    expect(ball.width / ball.height).toBeLessThan(1.15);
    expect(ball.count / (ball.width * ball.height)).toBeGreaterThan(0.65);
    expect(ball.count / (ball.width * ball.height)).toBeLessThan(0.9);
    // the lowest tenth is green, the ball stands above it
    const band: [number, number] = [Math.round(image.height * 0.9), image.height];
    expect(region(image, green, band).count / ((band[1] - band[0]) * image.width)).toBeGreaterThan(0.9);
    expect(ball.cy + ball.height / 2).toBeLessThan(band[0]);
    // warm light: the sky (top third) and the whole picture are redder than blue
    const [skyR, , skyB] = mean(image, [0, Math.round(image.height / 3)]);
    expect(skyR).toBeGreaterThan(skyB + 20);
    const [r, , b] = mean(image);
    expect(r).toBeGreaterThan(b);
    // the same words by day have a blue sky
    const day = await picture('a red ball on green grass at noon');
    const [dayR, , dayB] = mean(day, [0, Math.round(day.height / 3)]);
    expect(dayB).toBeGreaterThan(dayR + 40);
  });

  it('two different prompts give different pictures; the same prompt the same one', async () => {
    const a = await picture('a lighthouse by the sea');
    const b = await picture('a cottage in a snowy field');
    const differing = a.data.reduce((n, v, i) => n + (Math.abs(v - b.data[i]!) > 30 ? 1 : 0), 0);
    expect(differing / a.data.length).toBeGreaterThan(0.1);
    const again = await picture('a lighthouse by the sea');
    expect(Buffer.from(again.data).equals(Buffer.from(a.data))).toBe(true);
  });

  it('a colour word changes the dominant colour of the object', async () => {
    const bluePicture = await picture('a big blue box on the sand at sunset');
    const yellowPicture = await picture('a big yellow box on the sand at sunset');
    expect(region(bluePicture, blue).count).toBeGreaterThan(region(yellowPicture, blue).count + 5000);
    expect(region(yellowPicture, yellow).count).toBeGreaterThan(region(bluePicture, yellow).count + 5000);
  });

  it('a style trained on a zip of blue images moves later pictures towards its palette', async () => {
    const shades = [
      [20, 40, 160],
      [60, 90, 220],
      [10, 20, 90],
    ];
    const zip = buildZip(
      shades.map(([r, g, b], i) => ({
        name: `blues/${i}.png`,
        data: encodePng(
          16,
          16,
          new Uint8Array(16 * 16 * 4).map((_, k) => [r, g, b, 255][k % 4]!),
        ),
      })),
    );
    const palette = paletteOfZip(zip);
    expect(palette.length).toBe(3);
    for (const colour of palette) expect(colour[2]).toBeGreaterThan(colour[0] + 0.25);

    const server = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'application/zip' }).end(zip));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const zip_url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/blues.zip`;
    const style = expectSuccess(
      'createStyle',
      await call(engine, 'createStyle', { json: { zip_url, description: 'blue hour' } }),
    );
    const prompt = 'a red ball on green grass at sunset';
    const styled = await pollUntil(
      () => call(engine, 'createTextToImage', { json: { prompt, style_id: style.style_id } }),
      (answer) => answer.status === 201,
    );
    const session = expectSuccess('createTextToImage', styled).session_code;
    const done = await pollUntil(
      async () =>
        expectSuccess('getTextToImage', await call(engine, 'getTextToImage', { params: { session_code: session } })),
      (s) => s.status === 'completed',
    );
    const withStyle = decodeImage((await download(done.image_url)).bytes);
    const without = await picture(prompt);
    const blueness = (image: RgbaImage) => {
      const [r, , b] = mean(image);
      return b - r;
    };
    expect(blueness(withStyle)).toBeGreaterThan(blueness(without) + 40);
    // still the same scene: the ball is where it was, only its colours moved
    expect(region(withStyle, (r, g, b) => r + g + b < 600).count).toBeGreaterThan(0);
  });
});
