// The library's filters and order: kind, state, date, sort, and a search over names, prompts and session codes.
import { LIBRARY_SORTS, LIBRARY_STATES } from '../../../../shared/bridge/contract.ts';
import { JOB_KINDS, kindLabel } from '../../../../shared/kinds/index.ts';
import { Select } from '../../components/choices.tsx';
import { Options } from '../../components/ui.tsx';
import { TextField } from '../create/inputs.tsx';

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
export const STATE_LABELS: Record<LibraryState, string> = {
  active: 'Active',
  succeeded: 'Done',
  failed: 'Failed or cancelled',
};
export const DATE_LABELS: Record<DateRange, string> = {
  any: 'Any time',
  today: 'Today',
  week: 'Last 7 days',
  month: 'Last 30 days',
};

/** Each filter's select: its label, the choice of no filter (where there is one), its values and their words. */
const FILTERS: readonly {
  key: keyof LibraryFilters;
  label: string;
  any?: string;
  values: readonly string[];
  labels: Record<string, string>;
}[] = [
  {
    key: 'kind',
    label: 'Kind',
    any: 'Any kind',
    values: JOB_KINDS,
    labels: Object.fromEntries(JOB_KINDS.map((k) => [k, kindLabel(k)])),
  },
  { key: 'state', label: 'State', any: 'Any state', values: LIBRARY_STATES, labels: STATE_LABELS },
  { key: 'date', label: 'Created', values: DATE_RANGES, labels: DATE_LABELS },
  { key: 'sort', label: 'Sort', values: LIBRARY_SORTS, labels: SORT_LABELS },
];

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
  return (
    <search>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        {FILTERS.map(({ key, label, any, values, labels }) => (
          <div class="field inline" key={key}>
            <label for={`filter-${key}`}>{label}</label>
            {/* The values are those of the table, so of the filter's type. */}
            <Select
              id={`filter-${key}`}
              value={filters[key]}
              onChange={(value) => onChange({ ...filters, [key]: value } as LibraryFilters)}
            >
              {any && <option value="">{any}</option>}
              <Options values={values} labels={labels} />
            </Select>
          </div>
        ))}
        <TextField
          id="filter-search"
          label="Search"
          type="search"
          class="inline grow"
          placeholder="Name, prompt or session code"
          value={props.search}
          onChange={props.onSearch}
        />
      </form>
    </search>
  );
}
