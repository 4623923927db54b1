// The library's thumbnails are drawn on a worker thread of their own (main/mesh/thumbnail-thread.ts): the same
// picture as drawn on the calling thread, never on that thread, and a model that cannot be drawn (unreadable,
// or too large for the worker's memory) fails that one render with the reason while the caller goes on.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { drawModelFile } from '../../main/mesh/thumbnail.ts';
import { drawModelFileOffThread } from '../../main/mesh/thumbnail-thread.ts';
import { denseGridGlb } from '../engine/dense-glb.ts';
import { realFixture } from '../fixtures.ts';
import { tempDir } from '../helpers.ts';

describe('thumbnails drawn off the calling thread', () => {
  it('draws the same PNG as on this thread, on another thread', async () => {
    const fox = realFixture('glb', 'Fox.glb');
    const drawn = await drawModelFileOffThread(fox, 'glb', 96);
    expect(drawn.threadId).not.toBe(threadId);
    expect(drawn.png.equals(await drawModelFile(fox, 'glb', 96))).toBe(true);
  });

  it('draws the next thumbnails on the same worker (its modules load once)', async () => {
    const fox = realFixture('glb', 'Fox.glb');
    const [a, b] = await Promise.all([drawModelFileOffThread(fox, 'glb', 32), drawModelFileOffThread(fox, 'glb', 48)]);
    const c = await drawModelFileOffThread(fox, 'glb', 64);
    expect(new Set([a.threadId, b.threadId, c.threadId]).size).toBe(1);
    expect(a.threadId).not.toBe(threadId);
  });

  it('fails a render of an unreadable file with why, and draws the next one', async () => {
    const dir = tempDir('thumbnail-thread-');
    const bad = join(dir, 'not-a-model.glb');
    writeFileSync(bad, 'glTF but not really');
    await expect(drawModelFileOffThread(bad, 'glb', 96)).rejects.toThrow(/GLB/);
    const obj = join(dir, 'triangle.obj');
    writeFileSync(obj, 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    expect((await drawModelFileOffThread(obj, 'obj', 32)).png.subarray(1, 4).toString()).toBe('PNG');
  });

  it('a model too large for the worker’s memory fails that render, not this process', async () => {
    const dir = tempDir('thumbnail-thread-');
    const dense = join(dir, 'dense.glb');
    writeFileSync(dense, await denseGridGlb(600)); // 720,000 triangles
    await expect(drawModelFileOffThread(dense, 'glb', 96, { memoryMb: 4 })).rejects.toThrow(/memory|worker/);
    expect((await drawModelFileOffThread(realFixture('glb', 'Fox.glb'), 'glb', 32)).png.length).toBeGreaterThan(100);
  });
});
