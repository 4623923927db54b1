// Writes a download's partial file from two preallocated batch buffers used in turn: the body is read
// straight into one (a BodySink for the fast reader, or copied in by `add`) while the other is on its way
// to the disk. A full batch is hashed, then written; when both are busy the reader is asked to pause.
// The file is synced in the background every `checkpointBytes` (reported once synced). Memory stays flat:
// two batches, whatever the file's size.
import type { Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import type { BodySink } from './fast-get.ts';

const BATCH_BYTES = 4 << 20;
/** A batch with less room than this is written: smaller reads would cost more calls. */
const MIN_ROOM = 128 << 10;

export interface PartWriterOptions {
  handle: FileHandle;
  /** Where the body starts in the file. */
  start: number;
  /** Bytes still to come, when known: batches are no larger than needed. */
  expected?: number | undefined;
  hash: Hash;
  checkpointBytes: number;
  onWritten(position: number): void;
  onSynced(position: number): void;
}

export class PartWriter implements BodySink {
  readonly #handle: FileHandle;
  readonly #hash: Hash;
  readonly #checkpointBytes: number;
  readonly #onWritten: (position: number) => void;
  readonly #onSynced: (position: number) => void;
  readonly #batches: [Buffer, Buffer];
  #current = 0;
  #fill = 0;
  /** The batch being written, and its promise (one write at a time, so the file grows in order). */
  #writing: Promise<void> | undefined;
  /** The current batch is full and waits for the other's write: no room until it ends. */
  #blocked = false;
  #position: number;
  #synced: number;
  #syncing: Promise<void> | undefined;
  #error: unknown;
  #waiters: (() => void)[] = [];
  /** Called when room is back after `filled` answered false (the reader resumes). */
  onRoom: (() => void) | undefined;
  /** Called once when a write or sync fails (the reader should stop). */
  onError: ((error: unknown) => void) | undefined;

  constructor(options: PartWriterOptions) {
    this.#handle = options.handle;
    this.#hash = options.hash;
    this.#position = this.#synced = options.start;
    this.#checkpointBytes = options.checkpointBytes;
    this.#onWritten = options.onWritten;
    this.#onSynced = options.onSynced;
    const size =
      options.expected === undefined ? BATCH_BYTES : Math.min(BATCH_BYTES, Math.max(MIN_ROOM * 2, options.expected));
    this.#batches = [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)];
  }

  /** Bytes in the file so far (written, not necessarily synced). */
  get position(): number {
    return this.#position;
  }

  space(): Buffer {
    if (this.#blocked) throw new Error('PartWriter.space() called while full');
    return this.#batches[this.#current]!.subarray(this.#fill);
  }

  filled(bytes: number): boolean {
    this.#fill += bytes;
    if (this.#batches[this.#current]!.length - this.#fill < MIN_ROOM) this.#submit();
    return !this.#blocked && this.#error === undefined;
  }

  /** Copies `chunk` in (for readers that hand over their own buffers); waits while both batches are busy. */
  async add(chunk: Buffer): Promise<void> {
    for (let offset = 0; offset < chunk.length; ) {
      while (this.#blocked) {
        this.#check();
        await new Promise<void>((resolve) => this.#waiters.push(resolve));
      }
      this.#check();
      const copied = chunk.copy(this.space(), 0, offset);
      offset += copied;
      this.filled(copied);
    }
  }

  /** Writes what is left and syncs it all (also after a failed read: the bytes that came are kept). */
  async finish(): Promise<void> {
    if (this.#fill > 0 && !this.#blocked) this.#submit();
    while (this.#writing !== undefined) await this.#writing;
    await this.#syncing;
    this.#check();
    await this.#handle.sync();
    this.#synced = this.#position;
  }

  /** Hashes the current batch and writes it now, or as soon as the other batch is written. */
  #submit(): void {
    if (this.#fill === 0) return;
    this.#hash.update(this.#batches[this.#current]!.subarray(0, this.#fill));
    if (this.#writing === undefined) this.#startWrite();
    else this.#blocked = true;
  }

  #startWrite(): void {
    const batch = this.#batches[this.#current]!.subarray(0, this.#fill);
    this.#current = 1 - this.#current;
    this.#fill = 0;
    this.#writing = this.#write(batch).then(
      () => {
        this.#writing = undefined;
        if (this.#blocked) {
          this.#blocked = false;
          this.#startWrite(); // the batch that waited; the one just written is free again
          this.onRoom?.();
        }
        this.#wake();
      },
      (error: unknown) => {
        this.#writing = undefined;
        this.#fail(error);
      },
    );
  }

  async #write(batch: Buffer): Promise<void> {
    for (let done = 0; done < batch.length; ) {
      const { bytesWritten } = await this.#handle.write(batch, done, batch.length - done, this.#position);
      done += bytesWritten;
      this.#position += bytesWritten;
    }
    this.#onWritten(this.#position);
    if (this.#syncing === undefined && this.#position - this.#synced >= this.#checkpointBytes) {
      const at = this.#position;
      this.#syncing = this.#handle.datasync().then(
        () => {
          this.#synced = at;
          this.#syncing = undefined;
          this.#onSynced(at);
        },
        (error: unknown) => {
          this.#syncing = undefined;
          this.#fail(error);
        },
      );
    }
  }

  #fail(error: unknown): void {
    if (this.#error !== undefined) return;
    this.#error = error;
    this.onError?.(error);
    this.#wake();
  }

  #wake(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }

  #check(): void {
    if (this.#error !== undefined) throw this.#error;
  }
}
