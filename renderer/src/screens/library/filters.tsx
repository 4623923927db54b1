// The library's filters and order: kind, state, date, sort, and a search over names, prompts and session codes.
import { LIBRARY_SORTS, LIBRARY_STATES } from '../../../../shared/bridge/contract.ts';
import { JOB_KINDS, kindLabel } from '../../../../shared/kinds/index.ts';

export type LibrarySort = (typeof LIBRARY_SORTS)[number];
export type LibraryState = (typeof LIBRARY_STATES)[number];
export const DATE_RANGES = ['any', 'today', 'week', 'month'] as const;
export type DateRange = (typeof DATE_RANGES)[number];

export interface LibraryFilters {
  kind: string;
  state: LibraryState | '';
  date: DateRange;
  sort: LibrarySort;
}

export const NO_FILTERS: LibraryFilters = { kind: '', state: '', date: 'any', sort: 'newest' };

const SORT_LABELS: Record<LibrarySort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  name: 'Name (A–Z)',
  kind: 'Kind',
  state: 'State',
};
const STATE_LABELS: Record<LibraryState, string> = {
  active: 'Active',
  succeeded: 'Done',
  failed: 'Failed or cancelled',
};
const DATE_LABELS: Record<DateRange, string> = {
  any: 'Any time',
  today: 'Today',
  week: 'Last 7 days',
  month: 'Last 30 days',
};

/** The first moment of a date range (ms since the epoch), from `now`; undefined for any time. */
export function sinceOf(range: DateRange, now = new Date()): number | undefined {
  if (range === 'any') return undefined;
  if (range === 'today') return new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  return now.getTime() - (range === 'week' ? 7 : 30) * 86_400_000;
}

export function Filters(props: {
  filters: LibraryFilters;
  onChange: (f: LibraryFilters) => void;
  search: string;
  onSearch: (text: string) => void;
}) {
  const { filters, onChange } = props;
  const set = <K extends keyof LibraryFilters>(key: K, value: LibraryFilters[K]) =>
    onChange({ ...filters, [key]: value });
  return (
    <search>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field inline">
          <label for="filter-kind">Kind</label>
          <select id="filter-kind" value={filters.kind} onChange={(e) => set('kind', e.currentTarget.value)}>
            <option value="">Any kind</option>
            {JOB_KINDS.map((k) => (
              <option key={k} value={k}>
                {kindLabel(k)}
              </option>
            ))}
          </select>
        </div>
        <div class="field inline">
          <label for="filter-state">State</label>
          <select
            id="filter-state"
            value={filters.state}
            onChange={(e) => set('state', e.currentTarget.value as LibraryState | '')}
          >
            <option value="">Any state</option>
            {LIBRARY_STATES.map((s) => (
              <option key={s} value={s}>
                {STATE_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <div class="field inline">
          <label for="filter-date">Created</label>
          <select
            id="filter-date"
            value={filters.date}
            onChange={(e) => set('date', e.currentTarget.value as DateRange)}
          >
            {DATE_RANGES.map((d) => (
              <option key={d} value={d}>
                {DATE_LABELS[d]}
              </option>
            ))}
          </select>
        </div>
        <div class="field inline">
          <label for="filter-sort">Sort</label>
          <select
            id="filter-sort"
            value={filters.sort}
            onChange={(e) => set('sort', e.currentTarget.value as LibrarySort)}
          >
            {LIBRARY_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <div class="field inline grow">
          <label for="filter-search">Search</label>
          <input
            id="filter-search"
            type="search"
            placeholder="Name, prompt or session code"
            value={props.search}
            onInput={(e) => props.onSearch(e.currentTarget.value)}
          />
        </div>
      </form>
    </search>
  );
}
