// An answer to a download's GET, from either client (the fast path of fast-get.ts or undici through
// general-get.ts), and what one attempt may say went wrong.
import type { FastHeaders } from './fast-get.ts';
import type { PartWriter } from './part-writer.ts';

export interface HttpAnswer {
  statusCode: number;
  headers: FastHeaders;
  /** Drops the body (the answer is not used). */
  discard(): Promise<void>;
  /** Reads the body into `writer`; the body starts at `start` of a file of `total` bytes. */
  read(writer: PartWriter, start: number, total: number | undefined): Promise<void>;
}

/** One attempt went wrong in a way the next attempt can handle (`restart`: from byte 0). */
export class Retry extends Error {
  readonly restart: boolean;
  readonly waitMs: number | undefined;

  constructor(message: string, restart: boolean, waitMs?: number) {
    super(message);
    this.restart = restart;
    this.waitMs = waitMs;
  }
}

/** A body that grew past the most a download takes (shared/url-reading.ts): not worth another attempt. */
export class BodyTooLarge extends Error {
  readonly limit: number;

  constructor(limit: number) {
    super(`the body is larger than ${limit} bytes`);
    this.limit = limit;
  }
}
