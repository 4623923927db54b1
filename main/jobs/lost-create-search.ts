// The search for an image-to-3D session whose create answer was lost, done as a careful person would:
// the sessions created around the time it was sent, not known locally, with the same options; then
// their input image compared with the one sent. A service may store an uploaded data URI and list it
// under its own hosted URL (possibly re-encoded), so the pictures are compared, not the URLs: exact
// bytes first, then by their look (image-likeness.ts).
import type {
  CreateImageTo3dLegacyRequest,
  CreateImageTo3dRequest,
  ImageTo3dSession,
  ImageTo3dSessionOlder,
} from '../../shared/contract/index.ts';
import { IMAGE_TO_3D_OPTIONS } from '../../shared/contract/image-to-3d-options.ts';
import type { ServiceClient } from '../api/client.ts';
import type { Store } from '../store/database.ts';
import type { JournalEntry } from '../store/journal.ts';
import { ImageUnavailableError, imageBytes } from './image-bytes.ts';
import { listPages } from './list-pages.ts';
import { compareImages, fingerprint, type ImageFingerprint, type Likeness } from './image-likeness.ts';

export interface Candidate {
  sessionCode: string;
  createdAt: string;
  status: string;
  /** same-file: its input image has the very bytes sent; same-picture: the same picture, re-encoded; unverified: could not be told. */
  match: 'same-file' | 'same-picture' | 'unverified';
  /** What the comparison found, for people. */
  note: string;
}

export interface SearchResult {
  /** Sessions whose options and input image match. */
  sure: Candidate[];
  /** Sessions with the same options whose image could not be compared. */
  unsure: Candidate[];
  /** Sessions created in the window that are someone else's create: another image or other options. */
  ruledOut: { sessionCode: string; why: string }[];
}

/** How far the service's clock and the time of sending may differ when matching by creation time. */
export const MATCH_WINDOW_MS = 5 * 60_000;
const LIST_PAGES = 5;
const PAGE_SIZE = 100;
/** Candidates whose images are downloaded at most; more than that are left to the user. */
const MAX_COMPARED = 25;

export async function searchLostCreate(
  deps: { store: Store; client: ServiceClient },
  entry: JournalEntry,
  now: number,
): Promise<SearchResult> {
  const sentAt = entry.sentAt ?? entry.createdAt;
  const from = sentAt - MATCH_WINDOW_MS;
  const to = (entry.answeredAt ?? now) + MATCH_WINDOW_MS;
  const inWindow: ImageTo3dSessionOlder[] = [];
  // Whichever way the service reads `page` (a page number, or the records to skip): list-pages.ts.
  for await (const { list } of listPages(deps.client, { limit: PAGE_SIZE, maxPages: LIST_PAGES })) {
    for (const s of list.results) {
      const created = Date.parse(s.created_at ?? '');
      if (!(created >= from && created <= to)) continue;
      if (deps.store.jobs.findByRemoteId(s.session_code)) continue; // already ours
      inWindow.push(s);
    }
    const oldest = list.results.at(-1);
    if (oldest && Date.parse(oldest.created_at ?? '') < from) break; // newest first
  }

  const result: SearchResult = { sure: [], unsure: [], ruledOut: [] };
  const sent = sentImage(entry);
  let local: Promise<ImageFingerprint | ImageUnavailableError> | undefined;
  let compared = 0;
  for (const s of inWindow) {
    const options = await differentOptions(deps.client, entry, s);
    if (options !== undefined) {
      result.ruledOut.push({ sessionCode: s.session_code, why: options });
      continue;
    }
    const candidate = (match: Candidate['match'], note: string): Candidate => ({
      sessionCode: s.session_code,
      createdAt: s.created_at,
      status: s.status,
      match,
      note,
    });
    const listed = [...new Set([s.image_url, s.input_image, s.user_image].filter((u) => u !== ''))];
    if (sent === undefined) {
      result.unsure.push(candidate('unverified', 'the journal holds no input image to compare'));
      continue;
    }
    if (listed.includes(sent)) {
      result.sure.push(candidate('same-file', 'it lists the very image URL that was sent'));
      continue;
    }
    if (listed.length === 0) {
      result.unsure.push(candidate('unverified', 'the service lists no input image for it'));
      continue;
    }
    if (++compared > MAX_COMPARED) {
      result.unsure.push(
        candidate('unverified', `not compared: more than ${MAX_COMPARED} sessions were created around then`),
      );
      continue;
    }
    local ??= imageBytes(sent).then(fingerprint, (error: unknown) => asUnavailable(error));
    const mine = await local;
    if (mine instanceof ImageUnavailableError) {
      result.unsure.push(candidate('unverified', `the image that was sent cannot be read: ${mine.message}`));
      continue;
    }
    const verdict = await bestLikeness(mine, listed);
    if (verdict.verdict === 'same-file')
      result.sure.push(candidate('same-file', 'its input image is byte for byte the one sent'));
    else if (verdict.verdict === 'same-picture')
      result.sure.push(candidate('same-picture', 'its input image is the picture sent, re-encoded by the service'));
    else if (verdict.verdict === 'different')
      result.ruledOut.push({ sessionCode: s.session_code, why: `another input image (${verdict.why})` });
    else result.unsure.push(candidate('unverified', `its input image could not be compared: ${verdict.why}`));
  }
  return result;
}

/** The closest of the session's input images: a match beats an unsure one, which beats a different one. */
async function bestLikeness(mine: ImageFingerprint, urls: string[]): Promise<Likeness> {
  const order: Likeness['verdict'][] = ['same-file', 'same-picture', 'unsure', 'different'];
  let best: Likeness | undefined;
  for (const url of urls) {
    let likeness: Likeness;
    try {
      likeness = compareImages(mine, fingerprint(await imageBytes(url)));
    } catch (error) {
      likeness = { verdict: 'unsure', why: asUnavailable(error).message };
    }
    if (!best || order.indexOf(likeness.verdict) < order.indexOf(best.verdict)) best = likeness;
    if (best.verdict === 'same-file') break;
  }
  return best!;
}

function asUnavailable(error: unknown): ImageUnavailableError {
  return error instanceof ImageUnavailableError
    ? error
    : new ImageUnavailableError(`it could not be read (${(error as Error).message})`);
}

function sentImage(entry: JournalEntry): string | undefined {
  const image = (entry.body as { image_url?: unknown } | null)?.image_url;
  return typeof image === 'string' && image !== '' ? image : undefined;
}

/** Why the session cannot be the lost create's by its options; undefined when they agree (or cannot be read). */
async function differentOptions(
  client: ServiceClient,
  entry: JournalEntry,
  listed: ImageTo3dSessionOlder,
): Promise<string | undefined> {
  if (entry.endpoint === 'createImageTo3dLegacy') {
    const sent = (entry.body as Partial<CreateImageTo3dLegacyRequest> | null)?.model_version ?? '';
    return listed.model_version !== undefined && listed.model_version !== sent
      ? `model_version ${JSON.stringify(listed.model_version)}, not ${JSON.stringify(sent)}`
      : undefined;
  }
  const sent = (entry.body ?? {}) as Partial<CreateImageTo3dRequest>;
  let current: ImageTo3dSession;
  try {
    current = await client.getImageTo3d(listed.session_code);
  } catch {
    return undefined; // unreadable: its options cannot rule it out
  }
  // Every option of the contract's table the session reports back rules it out when it differs from the one sent.
  for (const { field } of IMAGE_TO_3D_OPTIONS) {
    const mine = sent[field];
    const theirs = current[field];
    if (mine === undefined || theirs === undefined || JSON.stringify(mine) === JSON.stringify(theirs)) continue;
    return `${field} ${JSON.stringify(theirs)}, not ${JSON.stringify(mine)}`;
  }
  return undefined;
}
