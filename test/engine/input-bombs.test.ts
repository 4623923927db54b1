// Issue #26 items 6 and 7 over the engine's HTTP API: decompression bombs (a GIF frame, a GLB texture, zip
// entries) are refused from the sizes they declare, at once and naming the limit, and an endless image body is
// cut at the image cap while it streams; the engine keeps serving after each.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { checkInput } from '../../main/engine/input-check.ts';
import { encodePng } from '../../main/engine/outputs/index.ts';
import {
  binaryFbx,
  fbxArray,
  fbxBomb,
  fbxProp,
  gifBomb,
  glbWithTexture,
  nestedFbxNodes,
  pngBomb,
  zipOf,
} from './bombs.ts';
import {
  createRetopology,
  endedImageTo3d,
  endedV3Session,
  startTestEngine,
  type TestEngine,
  uploadAnimationFile,
} from './helpers.ts';

const PNG = encodePng(8, 8, new Uint8Array(8 * 8 * 4).fill(120));
const MiB = 2 ** 20;

/** The first bytes of a binary FBX (its magic and version 7400): what the engine reads before trusting a zip entry. */
const FBX_HEAD = Buffer.concat([
  Buffer.from('Kaydara FBX Binary  \0\x1a\0', 'latin1'),
  Buffer.from([0xe8, 0x1c, 0, 0]),
]);

/** The GLB served as `/bomb.glb`: its PNG texture declares 50000×50000 (its data: 8 MiB of zeros deflated). */
const GLB_BOMB = glbWithTexture(pngBomb(50_000, 50_000, 8 * MiB));

/** A raw server: `/endless.png` sends a PNG's first bytes then zeros as fast as they are read, never ending; `/bomb.glb` GLB_BOMB. */
let raw: Server;
let rawBase: string;
let sentEndless = 0;
let engine: TestEngine;
beforeAll(async () => {
  raw = createServer((socket: Socket) => {
    socket.on('error', () => undefined);
    socket.once('data', (request: Buffer) => {
      if (request.toString('latin1').startsWith('GET /bomb.glb ')) {
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: model/gltf-binary\r\ncontent-length: ${GLB_BOMB.length}\r\n\r\n`,
        );
        return void socket.end(GLB_BOMB);
      }
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: image/png\r\nconnection: close\r\n\r\n');
      socket.write(PNG.subarray(0, 33));
      const chunk = Buffer.alloc(MiB);
      const pump = () => {
        while (!socket.destroyed) {
          sentEndless += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawBase = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
  engine = await startTestEngine({ inputs: { timeoutMs: 30_000 } }); // the default size cap: 1 GiB
});
afterAll(async () => {
  await engine?.dispose();
  await new Promise<void>((resolve) => raw?.close(() => resolve()));
});

/** An image-to-3D session of `image_url`, followed until it ends (complete or failed). */
const imageTo3d = async (image_url: string): Promise<any> =>
  (await endedImageTo3d(engine, { image_url, resolution: 'low_poly' }, 20_000)).done;

const dataUri = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

/** The engine still answers: a session of a good picture to its end. */
async function stillServing(): Promise<void> {
  expect((await imageTo3d(dataUri('image/png', PNG))).session_status).toBe('complete');
}

const uploadAnimation = (bytes: Buffer, name: string) => uploadAnimationFile(engine, bytes, name);

describe('decompression bombs sent to the engine (issue #26 item 6)', () => {
  it('a 35-byte GIF whose frame declares 30000×30000 fails its session at once, naming the limit', async () => {
    const started = Date.now();
    const gif = await imageTo3d(dataUri('image/gif', gifBomb()));
    expect(gif.session_status).toBe('failed');
    expect(gif.error).toBe(
      'The input image sent with the request is a GIF whose frame 1 declares 30000×30000 pixels, more than the 64 megapixels the local engine reads. Give an image (PNG, JPEG, WebP or GIF).',
    );
    const second = await imageTo3d(dataUri('image/gif', gifBomb(30_000, 30_000, 1)));
    expect(second.error).toContain('is a GIF whose frame 2 declares 30000×30000 pixels');
    expect(Date.now() - started).toBeLessThan(10_000); // each stalled the engine 15-17 s
    await stillServing();
  });

  it('a GLB whose PNG texture declares 50000×50000 is refused from its header, before the texture is inflated', async () => {
    const created = await createRetopology(engine, { mesh: `${rawBase}/bomb.glb`, model: 'swift' });
    const done = await endedV3Session(engine, created._id);
    expect(done.status).toBe('failed');
    expect(JSON.stringify(done)).toContain(
      'has a texture (image 0) that is a PNG whose header declares 50000×50000 pixels, more than the 64 megapixels the local engine reads',
    );
    await stillServing();
  });

  it('an FBX whose compressed array declares 200 million doubles is refused from the array header, alone or in a zip', async () => {
    const started = Date.now();
    const alone = await uploadAnimation(fbxBomb(), 'hero.fbx');
    expect(alone.status).toBe(400);
    const reason =
      'declares an array of 200000000 elements (1.5 GiB) in its node "Vertices", more than the 256 MiB of arrays in all the local engine reads of an FBX';
    expect((alone.body as any).message).toBe(`file: hero.fbx ${reason}.`);
    const zipped = await uploadAnimation(zipOf([{ name: 'rig/hero.fbx', data: fbxBomb() }]), 'hero.zip');
    expect(zipped.status).toBe(400);
    expect((zipped.body as any).message).toBe(`file: hero.zip holds rig/hero.fbx, which ${reason}.`);
    expect(Date.now() - started).toBeLessThan(5_000);
    await stillServing();
  });

  it('a zip whose FBX entry declares more than the total the engine reads fails its session, naming the limit', async () => {
    const zip = zipOf([
      { name: 'hero.fbx', data: Buffer.concat([FBX_HEAD, Buffer.alloc(4096)]), declaredSize: 100 * MiB },
      { name: 'textures.bin', data: Buffer.alloc(4096), declaredSize: 200 * MiB },
    ]);
    const answer = await uploadAnimation(zip, 'hero.zip');
    expect(answer.status).toBe(400);
    expect((answer.body as any).message).toBe(
      'file: hero.zip declares more than the 256 MiB uncompressed in total that the local engine reads of a zip.',
    );
    await stillServing();
  });

  it('a zip whose one FBX declares 250 MiB is refused before it is inflated, naming the limit (issue #33 item 3)', async () => {
    const zip = zipOf([
      { name: 'rig/hero.fbx', data: Buffer.concat([FBX_HEAD, Buffer.alloc(4096)]), declaredSize: 250 * MiB },
    ]);
    const answer = await uploadAnimation(zip, 'hero.zip');
    expect(answer.status).toBe(400);
    expect((answer.body as any).message).toBe(
      'file: hero.zip has an entry "rig/hero.fbx" that declares 250 MiB uncompressed, more than the 128 MiB the local engine reads of one entry.',
    );
    await stillServing();
  });

  it('an FBX bomb the check could not follow before is refused at upload: a `Z` before the array, the big-endian flag, deep nesting (issue #33 item 3)', async () => {
    const bomb = (bigEndian = false) => fbxArray('d', 200_000_000, 1024, bigEndian);
    const limit = 'declares an array of 200000000 elements (1.5 GiB) in its node "Vertices", more than the 256 MiB';
    const z = await uploadAnimation(
      binaryFbx([{ name: 'Vertices', props: [fbxProp('Z', Buffer.from([1])), bomb()] }]),
      'z.fbx',
    );
    expect(z.status).toBe(400);
    expect((z.body as any).message).toContain(`file: z.fbx ${limit}`);
    const big = await uploadAnimation(
      binaryFbx([{ name: 'Vertices', props: [bomb(true)] }], { bigEndian: true }),
      'be.fbx',
    );
    expect(big.status).toBe(400);
    expect((big.body as any).message).toContain(`file: be.fbx ${limit}`);
    const deep = await uploadAnimation(
      binaryFbx([nestedFbxNodes(80, { name: 'Vertices', props: [bomb()] })]),
      'deep.fbx',
    );
    expect(deep.status).toBe(400);
    expect((deep.body as any).message).toBe(
      'file: deep.fbx cannot be checked before it is read (its nodes are nested more than 64 deep), so the local engine does not read it. Export it again from your 3D tool as a binary FBX (version 7.x) or an ASCII FBX.',
    );
    await stillServing();
  });

  it('a zip entry that inflates past the size it declares is cut there, not read whole', async () => {
    // 512 MiB of zeros would deflate to 512 KiB; 64 MiB (64 KiB deflated) declared as 1 KiB is enough to show the cut.
    const zip = zipOf([
      { name: 'hero.fbx', data: Buffer.concat([FBX_HEAD, Buffer.alloc(64 * MiB)]), declaredSize: 1024 },
    ]);
    const started = Date.now();
    const answer = await uploadAnimation(zip, 'hero.zip');
    expect(answer.status).toBe(400);
    expect((answer.body as any).message).toMatch(
      /^file: hero\.zip could not be read \(too many bytes in the stream\. expected 1024\./,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    await stillServing();
  });
});

describe('a .gltf whose embedded texture declares 50000×50000', () => {
  it('is refused from the first bytes of a data-URI image, or of an image in a data-URI buffer at any offset', async () => {
    const bomb = pngBomb(50_000, 50_000, 4096);
    const dir = mkdtempSync(join(tmpdir(), 'asset-studio-gltf-bomb-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const asData = (bytes: Buffer) => `data:application/octet-stream;base64,${bytes.toString('base64')}`;
    const gltfs = {
      'image.gltf': { asset: { version: '2.0' }, images: [{ uri: asData(bomb) }] },
      'buffer.gltf': {
        asset: { version: '2.0' },
        buffers: [{ uri: asData(Buffer.concat([Buffer.alloc(5), bomb])), byteLength: bomb.length + 5 }],
        bufferViews: [{ buffer: 0, byteOffset: 5, byteLength: bomb.length }],
        images: [{ bufferView: 0, mimeType: 'image/png' }],
      },
    };
    for (const [name, json] of Object.entries(gltfs)) {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(json));
      await expect(checkInput(path, 'mesh', 2 ** 30), name).rejects.toThrow(
        'has a texture (image 0) that is a PNG whose header declares 50000×50000 pixels, more than the 64 megapixels the local engine reads',
      );
    }
    const fine = join(dir, 'fine.gltf');
    writeFileSync(fine, JSON.stringify({ asset: { version: '2.0' }, images: [{ uri: asData(PNG) }] }));
    expect(await checkInput(fine, 'mesh', 2 ** 30)).toBe('gltf');
  });
});

describe('an endless image body (issue #26 item 7)', () => {
  it('is cut as soon as it passes the 50 MiB image cap, while it streams', async () => {
    const endless = await imageTo3d(`${rawBase}/endless.png`);
    expect(endless.session_status).toBe('failed');
    expect(endless.error).toBe(
      `The input image ${rawBase}/endless.png could not be read: it is larger than the 50 MiB the engine reads for an image.`,
    );
    expect(sentEndless).toBeLessThan(200 * MiB); // cut at 50 MiB (and what the socket buffers held), not at 1 GiB
    await stillServing();
  });
});
