// The engine's records, kept in <dataDir>/state.json: loaded at start, written durably (main/durable) after every change.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurable } from '../durable/write-file.ts';
import type { AnimationRecord } from './sessions/animation.ts';
import type { ImageTo3dRecord } from './sessions/image-to-3d.ts';
import type { AssetRecord } from './sessions/assets.ts';
import type { GenerationRecord } from './sessions/generation.ts';
import type { RetopologyRecord } from './sessions/retopology.ts';
import type { StyleRecord, TextToImageRecord } from './sessions/text-to-image.ts';

const VERSION = 1;

export interface EngineState {
  version: typeof VERSION;
  /** Remaining credits per account (user id); an account missing here has not spent any yet. */
  credits: Record<string, number>;
  /** Every table keeps insertion order, which is creation order. */
  imageTo3d: Record<string, ImageTo3dRecord>;
  textToImage: Record<string, TextToImageRecord>;
  styles: Record<string, StyleRecord>;
  animations: Record<string, AnimationRecord>;
  retopology: Record<string, RetopologyRecord>;
  /** /v3 sessions of type image_to_3d and image_to_kit. */
  generations: Record<string, GenerationRecord>;
  assets: Record<string, AssetRecord>;
}

const empty = (): EngineState => ({
  version: VERSION,
  credits: {},
  imageTo3d: {},
  textToImage: {},
  styles: {},
  animations: {},
  retopology: {},
  generations: {},
  assets: {},
});

export interface StateStore {
  readonly state: EngineState;
  /** Writes the current state; calls made while a write runs are merged into one more write. */
  save(): Promise<void>;
  /** Waits for pending writes; later saves are ignored. */
  close(): Promise<void>;
}

export async function openState(dataDir: string): Promise<StateStore> {
  const path = join(dataDir, 'state.json');
  const state = await load(path);
  let idle: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;
  let closed = false;
  return {
    state,
    save() {
      if (closed) return Promise.resolve();
      queued ??= idle.then(() => {
        queued = undefined;
        return writeFileDurable(path, JSON.stringify(state));
      });
      idle = queued.catch(() => undefined);
      return queued;
    },
    async close() {
      closed = true;
      await idle;
    },
  };
}

async function load(path: string): Promise<EngineState> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty();
    throw error;
  }
  let value: Partial<EngineState>;
  try {
    value = JSON.parse(text) as Partial<EngineState>;
  } catch (error) {
    throw new Error(
      `The engine state ${path} is not valid JSON (${(error as Error).message}); move it away to start afresh.`,
    );
  }
  if (value.version !== VERSION)
    throw new Error(`The engine state ${path} has version ${value.version}; this engine reads version ${VERSION}.`);
  return { ...empty(), ...value };
}
