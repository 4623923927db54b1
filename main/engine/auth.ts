// The x-api-key check: one accepted key, compared in constant time, never echoed.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function makeAuthenticator(apiKey: string): (req: IncomingMessage) => void {
  const expected = digest(apiKey);
  return (req) => {
    const given = req.headers['x-api-key'];
    if (typeof given !== 'string' || given === '') {
      throw new HttpError(401, 'Missing x-api-key header: send your API key in the x-api-key header of every request.');
    }
    // Hashing first gives equal lengths, so the comparison time does not depend on the key.
    if (!timingSafeEqual(digest(given), expected)) throw new HttpError(401, 'Invalid API key');
  };
}
