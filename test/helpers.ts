// Helpers shared by test folders: temporary folders removed after each test, the error a promise rejects
// with, and the request head a raw TCP server reads. (Child processes killed at a chosen moment, for crash tests: test/process/kill-at-marker.ts.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, expect, onTestFinished } from 'vitest';

const leftOver: string[] = [];
process.once('exit', () => {
  for (const dir of leftOver) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh temporary folder: removed when the current test ends, or (made outside a test, when its file is read)
 * after the file's tests. Registered per folder, not by a hook of this module: a worker that runs several files
 * without isolation reads this module once.
 */
export function tempDir(prefix = 'asset-studio-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    try {
      afterAll(remove);
    } catch {
      leftOver.push(dir); // made in a hook: removed when the worker ends
    }
  }
  return dir;
}

/** The error `promise` rejects with, which must be a `type` (the test fails if it resolves or rejects with another). */
export async function rejection<E>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}

/**
 * For raw TCP servers that answer byte by byte: calls `handle` with the path once `socket` has sent a whole
 * request head (reset or not, the socket's errors are ignored).
 */
export function onRequestHead(socket: Socket, handle: (path: string) => void): void {
  socket.on('error', () => undefined);
  let got = '';
  socket.on('data', function onData(chunk: Buffer) {
    got += chunk.toString('latin1');
    if (!got.includes('\r\n\r\n')) return;
    socket.off('data', onData);
    handle(got.split(' ')[1] ?? '/');
  });
}
