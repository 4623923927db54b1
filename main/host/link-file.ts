// The local link: while the app runs, `<data dir>/link.json` says where its local host listens and with which
// token, so that tools of this user on this machine (the Blender add-on, integrations/blender/) can talk to
// the running app the way its own page does: `POST /api/call/<command>` with `Authorization: Bearer <token>`
// and a Host header of 127.0.0.1:<port>. The file is private (0600 in the 0700 data folder), written
// atomically (temp file, fsync, rename), and removed when the host closes; a file left by a crash names a
// process that is no longer alive, which readers report as "not running". The service's API key is never in
// it: tools call the app's commands, and the app calls the service.
import { readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { writeFileDurable } from '../durable/write-file.ts';

export const LINK_FILE_NAME = 'link.json';

export const linkFileSchema = z.object({
  /** The host's origin: `http://127.0.0.1:<port>`. */
  url: z.string().regex(/^http:\/\/127\.0\.0\.1:\d{1,5}$/, 'must be http://127.0.0.1:<port>'),
  /** The host's per-launch token (sent as `Authorization: Bearer <token>`). */
  token: z.string().min(16),
  /** The process serving it: a file whose process is gone was left by a crash. */
  pid: z.number().int().positive(),
  /** The app's version. */
  version: z.string(),
});
export type LinkFile = z.output<typeof linkFileSchema>;

const APP_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export function linkFilePath(dataDir: string): string {
  return join(dataDir, LINK_FILE_NAME);
}

/** Writes the link of a host that listens at `origin` (this process, this app version), replacing any. */
export async function writeLinkFile(dataDir: string, link: { origin: string; token: string }): Promise<LinkFile> {
  const content = linkFileSchema.parse({ url: link.origin, token: link.token, pid: process.pid, version: APP_VERSION });
  await writeFileDurable(linkFilePath(dataDir), `${JSON.stringify(content, null, 2)}\n`);
  return content;
}

/** The link in the data folder, or undefined when there is none or it cannot be read as one. */
export async function readLinkFile(dataDir: string): Promise<LinkFile | undefined> {
  let text: string;
  try {
    text = await readFile(linkFilePath(dataDir), 'utf8');
  } catch {
    return undefined;
  }
  try {
    return linkFileSchema.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * Removes the link if it is still this host's (same token): a second host started on the same data folder
 * has replaced it, and its link must stay.
 */
export async function removeLinkFile(dataDir: string, token: string): Promise<void> {
  const current = await readLinkFile(dataDir);
  if (current !== undefined && current.token !== token) return;
  await rm(linkFilePath(dataDir), { force: true });
}
