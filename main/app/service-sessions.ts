// The service's list of image-to-3D sessions, one page as the app counts pages (whichever way the service
// reads `page`: main/jobs/list-pages.ts); each answer, or its failure, tells the health monitor.
import type { Services } from './services.ts';
import { listPageNumber } from '../jobs/list-pages.ts';

export interface SessionsPage {
  results: Record<string, unknown>[];
  page: number;
  totalPages: number;
  totalResults: number;
  /** The balance the answer reports, when it does. */
  credits?: number;
}

export async function listServiceSessions(
  services: Pick<Services, 'client' | 'health'>,
  page: number,
  limit: number,
): Promise<SessionsPage> {
  const { client, health } = services;
  const data = await listPageNumber(client, page, limit).catch((error: unknown) => {
    health.record({ error });
    throw error;
  });
  health.record({ ok: true });
  const credits = data.credits ?? data.image_to_3d_credits;
  return {
    results: data.results as Record<string, unknown>[],
    page: data.page,
    totalPages: data.totalPages,
    totalResults: data.totalResults,
    ...(credits !== undefined && { credits }),
  };
}
