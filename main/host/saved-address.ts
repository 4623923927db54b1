// The web host's address kept between launches: `<data dir>/web-host.json` ({port, token}, 0600 in the 0700
// data folder, written atomically) holds the port and token of the last launch. The next launch listens on
// that port again when it is free and keeps the token with it, so a browser tab left open reconnects by
// itself (its sessionStorage still holds the token). When the port is
// taken (another program, or a second host on the same folder), the host takes a free port and a new token,
// and saves those. Delete the file to get a new token at the next launch.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { writeFileDurable } from '../durable/write-file.ts';

export const SAVED_ADDRESS_FILE = 'web-host.json';

export const savedAddressSchema = z.object({
  port: z.number().int().min(1).max(65535),
  token: z.string().min(16),
});
export type SavedAddress = z.output<typeof savedAddressSchema>;

export function savedAddressPath(dataDir: string): string {
  return join(dataDir, SAVED_ADDRESS_FILE);
}

/** The address of the last launch, or undefined when there is none or the file is not one (it is then replaced). */
export async function readSavedAddress(dataDir: string): Promise<SavedAddress | undefined> {
  try {
    return savedAddressSchema.parse(JSON.parse(await readFile(savedAddressPath(dataDir), 'utf8')));
  } catch {
    return undefined;
  }
}

export async function saveAddress(dataDir: string, address: SavedAddress): Promise<void> {
  await writeFileDurable(savedAddressPath(dataDir), `${JSON.stringify(savedAddressSchema.parse(address), null, 2)}\n`);
}
