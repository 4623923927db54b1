// The one way the CLI's commands find the job a user names: its local id, its session code, or its name as the
// library shows it (the name given by `rename`, else its label: the input file name or the prompt). A name is
// matched exactly first, then without regard to case, then as the start of a name; more than one entry left is a
// usage error listing them, so that the user can pick one by its id.
import type { Services } from '../app/services.ts';
import type { JobRecord } from '../store/jobs.ts';
import { UsageError } from './usage-error.ts';

/** The most candidates an ambiguous name lists (the rest are counted). */
const LISTED = 10;

/** The name the library shows for an entry. */
const shownName = (job: Pick<JobRecord, 'name' | 'label'>) => job.name ?? job.label;

/**
 * The entries a name picks out of the library's, by the first rule that matches any: the exact name, the name
 * in any case, a name it starts (in any case).
 */
export function matchByName<T extends Pick<JobRecord, 'name' | 'label'>>(entries: readonly T[], ref: string): T[] {
  const lower = ref.toLowerCase();
  const rules: ((name: string) => boolean)[] = [
    (name) => name === ref,
    (name) => name.toLowerCase() === lower,
    (name) => name.toLowerCase().startsWith(lower),
  ];
  for (const rule of rules) {
    const found = entries.filter((e) => rule(shownName(e)));
    if (found.length > 0) return found;
  }
  return [];
}

/** A local job id, the session code of a tracked job, or the name of a library entry (see above). */
export function findJob(s: Services, ref: string): JobRecord {
  const byId = s.store.jobs.get(ref) ?? s.store.jobs.findByRemoteId(ref);
  if (byId) return byId;
  // The library's entries whose name contains the text (an older-flow session is one entry, as in the library).
  const entries = ref.trim() === '' ? [] : s.store.jobs.list({ group: true, search: ref, limit: 2000 });
  const found = matchByName(entries, ref);
  if (found.length === 1) {
    const entry = found[0]!;
    // Named, an entry stands for what its session code would: the newest step of its session.
    return (entry.remoteId !== null ? s.store.jobs.findByRemoteId(entry.remoteId) : undefined) ?? entry;
  }
  if (found.length > 1) {
    const lines = found
      .slice(0, LISTED)
      .map((j) => `  ${j.id}  ${j.remoteId ?? '(no session)'}  ${JSON.stringify(shownName(j))}`);
    const more = found.length > LISTED ? `\n  … and ${found.length - LISTED} more` : '';
    throw new UsageError(
      `"${ref}" names ${found.length} jobs of the library:\n${lines.join('\n')}${more}\nGive one of them by its id (or its full name, or rename one with "asset-studio rename").`,
    );
  }
  throw new UsageError(
    `"${ref}" is not a job of this app: no job has this id, session code or name. See "asset-studio jobs"; sessions created elsewhere can be read with "asset-studio get".`,
  );
}
