// The library's entries, a page at a time: filtered, sorted and searched in main (jobs.list, grouped so
// an older-flow session is one entry), live through `job` events, with pictures, rename, and a selection
// to delete several at once.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { JobView } from '../../../../shared/bridge/contract.ts';
import type { ResourceKind } from '../../../../shared/kinds/index.ts';
import { getBridge } from '../../../bridge/index.ts';
import { appState, patchApp } from '../../app-state.ts';
import { ErrorBox, Section } from '../../components/ui.tsx';
import { useStore } from '../../store.ts';
import { toShownError, type ShownError } from '../../util.ts';
import { SelectionBar } from './delete-bar.tsx';
import { EmptyLibrary, activeFilters } from './empty-library.tsx';
import { Filters, NO_FILTERS, sinceOf, type LibraryFilters } from './filters.tsx';
import { JobRow } from './job-row.tsx';
import { Pager } from './pager.tsx';

const PAGE_SIZE = 50;

export function JobsList() {
  const bridge = getBridge();
  const [filters, setFilters] = useState<LibraryFilters>(NO_FILTERS);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [data, setData] = useState<{ jobs: JobView[]; total: number } | undefined>();
  const [error, setError] = useState<ShownError | undefined>();
  const [selected, setSelected] = useState<readonly string[]>([]);
  /** With no entry shown while filters are on: how many jobs the library holds unfiltered. */
  const [libraryTotal, setLibraryTotal] = useState<number | undefined>();
  const query = useMemo(() => {
    const since = sinceOf(filters.date);
    return {
      group: true,
      sort: filters.sort,
      ...(filters.state !== '' && { state: filters.state }),
      ...(filters.kind !== '' && { kinds: [filters.kind as ResourceKind] }),
      ...(since !== undefined && { since }),
      ...(search.trim() !== '' && { search: search.trim() }),
      limit: PAGE_SIZE,
      offset: page * PAGE_SIZE,
    };
  }, [filters, search, page]);
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
  const filtered = activeFilters(filters, search).length > 0;
  useEffect(() => {
    setLibraryTotal(undefined);
    if (data?.total !== 0 || !filtered) return;
    let live = true;
    bridge
      .call('jobs.list', { group: true, limit: 1 })
      .then((r) => live && setLibraryTotal(r.total))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [data?.total === 0, filtered, resync]);

  // Debounced search.
  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(searchText);
      setPage(0);
    }, 250);
    return () => clearTimeout(t);
  }, [searchText]);

  // Live: an entry on this page takes the job's new state in place (keeping its picture and steps);
  // anything else (a step of a session, a new job) re-reads the page, at most 2× a second, and so does a
  // file of a shown job reaching the cache (its "files cached" and picture come with the page: the job
  // itself sends no event when its last file arrives; an older-flow session's refined mesh replaces the
  // preview's picture).
  const shown = useRef<JobView[]>([]);
  shown.current = data?.jobs ?? [];
  useEffect(() => {
    const refetchSoon = () => {
      if (refetchTimer.current !== undefined) return;
      refetchTimer.current = setTimeout(() => {
        refetchTimer.current = undefined;
        load();
      }, 500);
    };
    const offOutput = bridge.on('cache.output', (o) => {
      if (
        o.state === 'complete' &&
        shown.current.some(
          (j) => j.remoteId === o.sessionId && (j.steps !== undefined || !j.outputsFetched || !j.thumbnail),
        )
      )
        refetchSoon();
    });
    const off = bridge.on('job', (job) => {
      let replaced = false;
      setData((d) => {
        if (!d) return d;
        const i = d.jobs.findIndex((j) => j.id === job.id);
        if (i < 0 || d.jobs[i]!.steps) return d;
        replaced = true;
        const jobs = d.jobs.slice();
        jobs[i] = { ...job, thumbnail: d.jobs[i]!.thumbnail ?? null };
        return { ...d, jobs };
      });
      if (!replaced) refetchSoon();
    });
    return () => {
      off();
      offOutput();
      clearTimeout(refetchTimer.current);
      refetchTimer.current = undefined;
    };
  }, [query]);

  useEffect(() => {
    if (data) patchApp({ jobsShown: true });
  }, [data !== undefined]);

  const changeFilters = (f: LibraryFilters) => {
    setFilters(f);
    setPage(0);
  };
  const clearFilters = () => {
    changeFilters({ ...NO_FILTERS, sort: filters.sort });
    setSearchText('');
    setSearch('');
  };
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const replace = (job: JobView) =>
    setData((d) => d && { ...d, jobs: d.jobs.map((j) => (j.id === job.id ? { ...j, name: job.name } : j)) });
  return (
    <Section title="Jobs" id="jobs">
      <Filters filters={filters} onChange={changeFilters} search={searchText} onSearch={setSearchText} />
      <ErrorBox error={error} title="The job list could not be read." />
      {data && (
        <>
          <div aria-live="polite">
            {data.total === 0 ? (
              <EmptyLibrary filters={filters} search={search} libraryTotal={libraryTotal} onClear={clearFilters} />
            ) : (
              <p class="count">
                {`${data.total} job${data.total === 1 ? '' : 's'}${pages > 1 ? ` · page ${page + 1} of ${pages}` : ''}`}
              </p>
            )}
          </div>
          {data.total > 0 && (
            <SelectionBar
              selected={selected}
              pageIds={data.jobs.map((j) => j.id)}
              onSelect={setSelected}
              onDeleted={load}
            />
          )}
          <ul class="job-list" aria-label="Jobs">
            {data.jobs.map((job) => (
              <JobRow
                key={job.id}
                job={job}
                onRenamed={replace}
                selection={{
                  selected: selected.includes(job.id),
                  onSelect: (on) => setSelected((s) => (on ? [...s, job.id] : s.filter((id) => id !== job.id))),
                }}
              />
            ))}
          </ul>
          {pages > 1 && <Pager page={page + 1} pages={pages} onPage={(p) => setPage(p - 1)} label="Job pages" />}
        </>
      )}
      {!data && !error && <p class="muted">Loading jobs…</p>}
    </Section>
  );
}
