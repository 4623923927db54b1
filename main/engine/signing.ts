// Signed, expiring file URLs: HMAC-SHA256 over the file key and expiry, with a per-engine secret
// kept in the data folder so URLs stay valid across restarts.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurable } from '../durable/write-file.ts';

export interface Signer {
  /** `expires` (epoch seconds) and `sig` query values for a file key. */
  sign(key: string, expires: number): string;
  verify(key: string, expires: number, sig: string): boolean;
}

export async function loadSigner(dataDir: string): Promise<Signer> {
  const path = join(dataDir, 'url-secret.key');
  let secret = await readFile(path).catch(() => undefined);
  if (secret === undefined || secret.length < 32) {
    secret = randomBytes(32);
    await writeFileDurable(path, secret);
  }
  const key = secret;
  const sign = (file: string, expires: number) =>
    createHmac('sha256', key).update(`${file}\n${expires}`).digest('base64url');
  return {
    sign,
    verify(file, expires, sig) {
      const expected = Buffer.from(sign(file, expires));
      const given = Buffer.from(sig);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
