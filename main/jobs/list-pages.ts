// The image-to-3D list, walked from the newest session, whichever way the service reads `page`. The spec says
// `page` is "the number of records to skip", the vendor's examples send page=1 for the first page, and the
// answer carries both `page` and `skip`: the answer's `skip` says which records came back. A first answer
// that skipped one record for page=1 shows the records-skipped reading; the walk then starts again at page=0
// (else the newest session, the one a lost create most likely made, would be missed).
import type { ImageTo3dList } from '../../shared/contract/index.ts';
import type { CallOptions, ServiceClient } from '../api/client.ts';

export type PageReading = 'page-number' | 'records-skipped';

export interface ListPage {
  list: ImageTo3dList;
  /** Records before the first of this page (newest first). */
  skip: number;
  reading: PageReading;
}

/** Which records the answer holds: its `skip` when given, else what a page number means. */
export function recordsSkipped(list: Pick<ImageTo3dList, 'skip'>, page: number, limit: number): number {
  return typeof list.skip === 'number' ? list.skip : (Math.max(page, 1) - 1) * limit;
}

/** The `page` to send for the records from `offset` on, under a reading. */
export function pageFor(reading: PageReading, offset: number, limit: number): number {
  return reading === 'records-skipped' ? offset : Math.floor(offset / limit) + 1;
}

/** Pages of the list from the newest record, at most `maxPages` requests. */
export async function* listPages(
  client: Pick<ServiceClient, 'listImageTo3d'>,
  options: { limit: number; maxPages: number } & CallOptions,
): AsyncGenerator<ListPage> {
  const { limit, maxPages, ...o } = options;
  let reading: PageReading = 'page-number';
  let offset = 0;
  for (let sent = 0; sent < maxPages; sent++) {
    const page = pageFor(reading, offset, limit);
    const list = await client.listImageTo3d({ limit, page }, o);
    const skip = recordsSkipped(list, page, limit);
    if (sent === 0 && skip !== offset && skip === page && page > 0) {
      reading = 'records-skipped'; // page=1 skipped one record: ask again from the first
      continue;
    }
    yield { list, skip, reading };
    offset = skip + list.results.length;
    const total = typeof list.totalResults === 'number' ? list.totalResults : Number.POSITIVE_INFINITY;
    if (list.results.length === 0 || offset >= total) return;
  }
}

/**
 * Page `page` (from 1) of `limit` records, as the app counts pages, whichever way the service reads `page`:
 * asked as a page number; when the answer's `skip` shows the records-skipped reading, asked again for the
 * records that page holds. `page` in the result is the app's page number.
 */
export async function listPageNumber(
  client: Pick<ServiceClient, 'listImageTo3d'>,
  page: number,
  limit: number,
  o: CallOptions = {},
): Promise<ImageTo3dList> {
  const wanted = (Math.max(page, 1) - 1) * limit;
  const first = await client.listImageTo3d({ limit, page }, o);
  if (recordsSkipped(first, page, limit) === wanted) return first;
  const again = await client.listImageTo3d({ limit, page: wanted }, o);
  return { ...again, page };
}
