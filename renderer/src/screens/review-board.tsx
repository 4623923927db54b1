// The review board (#31 item 6): a grid of the library's (or one batch's) finished models, each with its picture,
// state, triangles, largest texture, the engine-fit verdict against the chosen profile (review.list) and the
// credits its create cost; approve or reject each (kept in main's store), run one again with other settings, and
// export every approved model with the profile in one go (review-actions.tsx). Keyboard: arrows move between
// cards, A approves, R rejects.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { BatchView, JobView } from '../../../shared/bridge/contract.ts';
import type { ReviewEntry } from '../../../shared/bridge/game-ready.ts';
import { getBridge } from '../../bridge/index.ts';
import { appState } from '../app-state.ts';
import { creditsStore } from '../credits.ts';
import { ErrorBox, StateBadge } from '../components/ui.tsx';
import { checkProfileOf, PROFILE_LABELS } from '../profiles.ts';
import { useStore } from '../store.ts';
import { jobTitle, toShownError, type ShownError } from '../util.ts';
import { ProfileSelect, VERDICT_TEXT } from './fit-report.tsx';
import { Thumbnail } from './library/thumbnail.tsx';
import { ExportApproved, RunAgain } from './review-actions.tsx';

type Decision = ReviewEntry['decision'];
const counted = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function ReviewBoard({ batch }: { batch?: string | undefined }) {
  const { settings } = useStore(appState);
  const credits = useStore(creditsStore);
  const [profile, setProfile] = useState(() => checkProfileOf(settings));
  const [scope, setScope] = useState(batch ?? 'library');
  const [batches, setBatches] = useState<BatchView[]>([]);
  const [jobs, setJobs] = useState<JobView[] | undefined>();
  const [entries, setEntries] = useState<Map<string, ReviewEntry>>(new Map());
  const [error, setError] = useState<ShownError | undefined>();
  const [again, setAgain] = useState<JobView | undefined>();
  const grid = useRef<HTMLUListElement>(null);

  useEffect(() => {
    void getBridge()
      .call('batch.list', {})
      .then(
        (b) => setBatches(b.batches),
        () => {},
      );
  }, []);
  useEffect(() => {
    let current = true;
    setJobs(undefined);
    (async () => {
      const { jobs: all } = await getBridge().call('jobs.list', { state: 'succeeded', limit: 500 });
      const inBatch = batches.find((b) => b.batchId === scope);
      const ids = inBatch && new Set(inBatch.items.flatMap((i) => (i.jobId ? [i.jobId] : [])));
      const shown = all.filter((j) => (!ids || ids.has(j.id)) && j.kind !== 'text_to_image' && j.kind !== 'style');
      if (!current) return;
      setJobs(shown);
      const rows = await getBridge().call('review.list', { jobIds: shown.map((j) => j.id), profile });
      if (current) setEntries(new Map(rows.entries.map((e) => [e.jobId, e])));
    })().catch((e: unknown) => current && setError(toShownError(e)));
    return () => {
      current = false;
    };
  }, [scope, profile, batches]);

  const decide = async (jobId: string, decision: Decision) => {
    try {
      const d = await getBridge().call('review.decide', { jobId, decision });
      setEntries((m) => new Map(m).set(jobId, { ...m.get(jobId)!, decision: d.decision }));
    } catch (e) {
      setError(toShownError(e));
    }
  };

  /**
   * With the focus in a card (its name, a link, or one of its buttons): arrows move to the next card's name (up and
   * down by a row of the grid), A approves, R rejects.
   */
  const onKey = (e: KeyboardEvent) => {
    const cards = [...(grid.current?.querySelectorAll<HTMLElement>('.review-card') ?? [])];
    const card = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('.review-card');
    const at = card ? cards.indexOf(card) : -1;
    if (at < 0 || e.ctrlKey || e.metaKey || e.altKey) return;
    const columns = Math.max(1, cards.filter((c) => c.offsetTop === cards[0]!.offsetTop).length);
    const step: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns };
    const jobId = cards[at]!.dataset.job!;
    if (e.key in step) {
      e.preventDefault();
      cards[Math.min(cards.length - 1, Math.max(0, at + step[e.key]!))]
        ?.querySelector<HTMLElement>('.review-name')
        ?.focus();
    } else if (e.key === 'a' || e.key === 'A') void decide(jobId, 'approved');
    else if (e.key === 'r' || e.key === 'R') void decide(jobId, 'rejected');
  };

  const approved = (jobs ?? []).filter((j) => entries.get(j.id)?.decision === 'approved');
  return (
    <>
      <h1>Review board</h1>
      <p class="hint">
        Every finished model against a target profile. Arrow keys move between cards; <kbd>A</kbd> approves,{' '}
        <kbd>R</kbd> rejects. Approved models are exported together with the profile.
      </p>
      <div class="review-toolbar">
        <label for="review-scope">Models of</label>
        <select id="review-scope" value={scope} onChange={(e) => setScope(e.currentTarget.value)}>
          <option value="library">the library</option>
          {batches.map((b) => (
            <option key={b.batchId} value={b.batchId}>
              the batch of {new Date(b.createdAt).toLocaleString()} ({b.items.length} files)
            </option>
          ))}
        </select>
        <label for="review-profile">Profile</label>
        <ProfileSelect id="review-profile" value={profile} onChange={setProfile} />
      </div>
      <ErrorBox error={error} title="The board could not be read" />
      {!jobs ? (
        <p class="muted">Reading the models…</p>
      ) : jobs.length === 0 ? (
        <p class="muted">No finished models here yet.</p>
      ) : (
        <ul class="review-grid" ref={grid} aria-label="Models to review" onKeyDown={onKey}>
          {jobs.map((job) => {
            const entry = entries.get(job.id);
            const cost = entry?.endpoint ? credits?.costs[entry.endpoint]?.credits : undefined;
            return (
              <li
                key={job.id}
                class={`review-card${entry?.decision ? ` review-${entry.decision}` : ''}`}
                data-job={job.id}
                data-decision={entry?.decision ?? 'none'}
                data-verdict={entry?.verdict ?? 'none'}
                aria-label={`${jobTitle(job)}${entry?.decision ? `, ${entry.decision}` : ''}`}
              >
                <Thumbnail job={job} size={160} />
                <a class="review-name" href={`#/job/${job.id}`}>
                  {jobTitle(job)}
                </a>
                <StateBadge job={job} />
                <dl class="facts review-facts">
                  <dt>Triangles</dt>
                  <dd data-stat="triangles">{entry?.model ? entry.model.triangles.toLocaleString('en') : '–'}</dd>
                  <dt>Largest texture</dt>
                  <dd>{entry?.model?.largestTexture ? `${entry.model.largestTexture} px` : 'none'}</dd>
                  <dt>{PROFILE_LABELS[profile]}</dt>
                  <dd data-stat="verdict">
                    {entry?.verdict ? (
                      <span class={`fit-badge fit-${entry.verdict}`}>{VERDICT_TEXT[entry.verdict]}</span>
                    ) : (
                      (entry?.reason ?? 'checking…')
                    )}
                    {entry &&
                      entry.errors + entry.warnings > 0 &&
                      ` (${counted(entry.errors, 'error')}, ${counted(entry.warnings, 'warning')})`}
                  </dd>
                  <dt>Credits</dt>
                  <dd>{cost ?? '–'}</dd>
                </dl>
                <div class="review-buttons">
                  <button
                    type="button"
                    aria-pressed={entry?.decision === 'approved'}
                    onClick={() => void decide(job.id, entry?.decision === 'approved' ? null : 'approved')}
                  >
                    Approve
                  </button>
                  <button
                    type="button"
                    aria-pressed={entry?.decision === 'rejected'}
                    onClick={() => void decide(job.id, entry?.decision === 'rejected' ? null : 'rejected')}
                  >
                    Reject
                  </button>
                  <button type="button" onClick={() => setAgain(job)}>
                    Run again…
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {again && <RunAgain job={again} onClose={() => setAgain(undefined)} />}
      <ExportApproved jobs={approved} profile={profile} />
    </>
  );
}
