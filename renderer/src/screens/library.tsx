// The library: every job of this app (a page at a time, live through `job` events) and the service's
// own list of sessions with paging. Works from the local database when the service is unreachable.
import { Fragment } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { CommandOutput, JobView } from '../../../shared/bridge/contract.ts';
import { JOB_KINDS, kindLabel, normaliseStatus, type ResourceKind } from '../../../shared/kinds/index.ts';
import { getBridge } from '../../bridge/index.ts';
import { appState, isServiceUnreachable, patchApp } from '../app-state.ts';
import { useStore } from '../store.ts';
import { LocalEngineBadge } from '../components/local-engine.tsx';
import { ErrorBox, Progress, Section, StateBadge, TableHead } from '../components/ui.tsx';
import { thumbnailOf, useOutputs } from '../outputs.ts';
import { formatTime, jobTitle, stepLabel, toShownError, type ShownError } from '../util.ts';
import { JobActions } from './job-actions.tsx';

const PAGE_SIZE = 50;

export function Library() {
  return (
    <>
      <h1>Library</h1>
      <JobsList />
      <ServiceSessions />
    </>
  );
}

function JobsList() {
  const bridge = getBridge();
  const [active, setActive] = useState<'all' | 'active'>('all');
  const [kind, setKind] = useState('');
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [data, setData] = useState<{ jobs: JobView[]; total: number } | undefined>();
  const [error, setError] = useState<ShownError | undefined>();
  const query = useMemo(
    () => ({
      ...(active === 'active' && { active: true }),
      ...(search.trim() !== '' && { search: search.trim() }),
      ...(kind !== '' && { kinds: [kind as ResourceKind] }),
      limit: PAGE_SIZE,
      offset: page * PAGE_SIZE,
    }),
    [active, kind, search, page],
  );
  const generation = useRef(0);
  const refetchTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const load = () => {
    const mine = ++generation.current;
    bridge
      .call('jobs.list', query)
      .then((result) => {
        if (mine !== generation.current) return;
        setData(result);
        setError(undefined);
      })
      .catch((e: unknown) => mine === generation.current && setError(toShownError(e)));
  };

  const { resync } = useStore(appState);
  useEffect(load, [query, resync]);

  // Debounced search.
  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(searchText);
      setPage(0);
    }, 250);
    return () => clearTimeout(t);
  }, [searchText]);

  // Live: a job on this page is replaced in place; anything else re-reads the page (at most 2× a second).
  useEffect(() => {
    const off = bridge.on('job', (job) => {
      let replaced = false;
      setData((d) => {
        if (!d) return d;
        const i = d.jobs.findIndex((j) => j.id === job.id);
        if (i < 0) return d;
        replaced = true;
        const jobs = d.jobs.slice();
        jobs[i] = job;
        return { ...d, jobs };
      });
      if (!replaced && refetchTimer.current === undefined) {
        refetchTimer.current = setTimeout(() => {
          refetchTimer.current = undefined;
          load();
        }, 500);
      }
    });
    return () => {
      off();
      clearTimeout(refetchTimer.current);
      refetchTimer.current = undefined;
    };
  }, [query]);

  useEffect(() => {
    if (data) patchApp({ jobsShown: true });
  }, [data !== undefined]);

  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  return (
    <Section title="Jobs" id="jobs">
      <search>
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          <fieldset class="segmented">
            <legend>Show</legend>
            {(['all', 'active'] as const).map((v) => (
              <label key={v}>
                <input type="radio" name="active" value={v} checked={active === v} onChange={() => (setActive(v), setPage(0))} />
                {v === 'all' ? 'All jobs' : 'Active only'}
              </label>
            ))}
          </fieldset>
          <div class="field inline">
            <label for="filter-kind">Kind</label>
            <select id="filter-kind" value={kind} onChange={(e) => (setKind(e.currentTarget.value), setPage(0))}>
              <option value="">Any kind</option>
              {JOB_KINDS.map((k) => (
                <option key={k} value={k}>
                  {kindLabel(k)}
                </option>
              ))}
            </select>
          </div>
          <div class="field inline grow">
            <label for="filter-search">Search</label>
            <input id="filter-search" type="search" placeholder="Name or session code" value={searchText} onInput={(e) => setSearchText(e.currentTarget.value)} />
          </div>
        </form>
      </search>
      <ErrorBox error={error} title="The job list could not be read." />
      {data && (
        <>
          <p class="count" aria-live="polite">
            {data.total === 0 ? 'No jobs match.' : `${data.total} job${data.total === 1 ? '' : 's'}${pages > 1 ? ` · page ${page + 1} of ${pages}` : ''}`}
          </p>
          <ul class="job-list" aria-label="Jobs">
            {data.jobs.map((job) => (
              <JobRow key={job.id} job={job} />
            ))}
          </ul>
          {pages > 1 && <Pager page={page + 1} pages={pages} onPage={(p) => setPage(p - 1)} label="Job pages" />}
        </>
      )}
      {!data && !error && <p class="muted">Loading jobs…</p>}
    </Section>
  );
}

export function JobRow({ job }: { job: JobView }) {
  const outputs = useOutputs(job.remoteId, job.state === 'succeeded', job.outputsFetched);
  const thumb = thumbnailOf(outputs);
  return (
    <li class={`job-row state-${job.state}`} data-job-id={job.id}>
      <div class="thumb" aria-hidden="true">
        {thumb?.url ? <img src={thumb.url} alt="" loading="lazy" width={64} height={64} /> : <span class="thumb-kind">{kindLabel(job.kind).slice(0, 2)}</span>}
      </div>
      <div class="job-main">
        <a class="job-title" href={`#/job/${encodeURIComponent(job.id)}`}>
          {jobTitle(job)}
        </a>
        <div class="job-meta">
          <span>{kindLabel(job.kind)}{stepLabel(job)}</span>
          {job.remoteId && <code>{job.remoteId}</code>}
          <span>{formatTime(job.createdAt)}</span>
          {job.outputsFetched && <span class="cached">files cached</span>}
          <LocalEngineBadge />
        </div>
        {job.error && <p class="job-error">{job.error}</p>}
      </div>
      <div class="job-status">
        <StateBadge job={job} />
        <Progress percent={job.percent ?? (job.state === 'succeeded' ? 100 : null)} label={`Progress of ${jobTitle(job)}`} />
      </div>
      <div class="job-actions">
        <JobActions job={job} />
      </div>
    </li>
  );
}

export function Pager({ page, pages, onPage, label }: { page: number; pages: number; onPage: (page: number) => void; label: string }) {
  const numbers = new Set<number>([1, pages, page - 1, page, page + 1].filter((p) => p >= 1 && p <= pages));
  const sorted = [...numbers].sort((a, b) => a - b);
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      {sorted.map((p, i) => (
        <Fragment key={p}>
          {i > 0 && p - sorted[i - 1]! > 1 && <span aria-hidden="true">…</span>}
          <button type="button" aria-current={p === page ? 'page' : undefined} aria-label={`Page ${p}`} onClick={() => onPage(p)}>
            {p}
          </button>
        </Fragment>
      ))}
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

type SessionsList = CommandOutput<'sessions.list'>;

function ServiceSessions() {
  const bridge = getBridge();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<SessionsList | undefined>();
  const [error, setError] = useState<ShownError | undefined>();
  const [loading, setLoading] = useState(false);
  const load = () => {
    setLoading(true);
    bridge
      .call('sessions.list', { page, limit: 10 })
      .then((r) => {
        setData(r);
        setError(undefined);
        patchApp({ serviceDown: undefined, ...(r.credits !== undefined && { credits: r.credits }) });
      })
      .catch((e: unknown) => {
        const shown = toShownError(e);
        setError(shown);
        // Unreachable service: a banner says so and the app goes on from its cache; no error here.
        if (isServiceUnreachable(shown)) patchApp({ serviceDown: shown.message });
      })
      .finally(() => setLoading(false));
  };
  useEffect(load, [page]);
  const unreachable = error && isServiceUnreachable(error);
  return (
    <Section
      title="Sessions at the service"
      id="sessions"
      actions={
        <button type="button" onClick={load} disabled={loading}>
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
      }
    >
      <p class="hint">Image-to-3D sessions as the service lists them (also those made outside this app), newest first.</p>
      {unreachable ? <p class="muted">Not available while the service cannot be reached.</p> : <ErrorBox error={error} title="The service's list could not be read." />}
      {data && !unreachable && (
        <>
          <p class="count">
            {data.totalResults} session{data.totalResults === 1 ? '' : 's'}
            {data.credits !== undefined && ` · ${data.credits} credits left`}
          </p>
          <table class="sessions">
            <caption class="visually-hidden">Sessions at the service, page {data.page}</caption>
            <TableHead columns={['Session', 'Status', 'Model', 'Created']} />
            <tbody>
              {data.results.map((s) => {
                const raw = String(s.status ?? '');
                const status = normaliseStatus('image_to_3d', raw);
                return (
                  <tr key={String(s.session_code)}>
                    <td>
                      <code>{String(s.session_code ?? '')}</code>
                    </td>
                    <td>
                      <StateBadge job={{ state: status.state, rawStatus: raw }} />
                    </td>
                    <td>{String(s.model_version ?? '') || '–'}</td>
                    <td>{formatTime(String(s.created_at ?? ''))}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {data.totalPages > 1 && <Pager page={page} pages={data.totalPages} onPage={setPage} label="Session pages" />}
        </>
      )}
    </Section>
  );
}
