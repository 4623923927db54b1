// What the library says when a page has no entry: with no job at all, how to make the first one (a create
// form, or files dropped on the window); when the filters or the search hide every job, which of them do,
// with a button that clears them.
import { kindLabel } from '../../../../shared/kinds/index.ts';
import { DATE_LABELS, NO_FILTERS, STATE_LABELS, type LibraryFilters } from './filters.tsx';

/** The filters (and search) that narrow the list, in words: `Kind: Mesh animation`, `Search: “chair”`. */
export function activeFilters(filters: LibraryFilters, search: string): string[] {
  const active: string[] = [];
  if (filters.kind !== '') active.push(`Kind: ${kindLabel(filters.kind)}`);
  if (filters.state !== '') active.push(`State: ${STATE_LABELS[filters.state]}`);
  if (filters.date !== NO_FILTERS.date) active.push(`Created: ${DATE_LABELS[filters.date]}`);
  if (search.trim() !== '') active.push(`Search: “${search.trim()}”`);
  return active;
}

export function EmptyLibrary(props: {
  filters: LibraryFilters;
  search: string;
  /** How many jobs the library holds with no filter (undefined: not known yet). */
  libraryTotal: number | undefined;
  onClear: () => void;
}) {
  const active = activeFilters(props.filters, props.search);
  if (active.length > 0 && props.libraryTotal !== 0) {
    const total = props.libraryTotal;
    return (
      <div class="empty-library" data-testid="empty-library" data-why="filtered">
        <p>
          {total === undefined
            ? 'No job matches these filters'
            : total === 1
              ? 'The one job in the library does not match these filters'
              : `None of the ${total} jobs in the library match these filters`}
          : {active.join(' · ')}.
        </p>
        <button type="button" onClick={props.onClear}>
          Clear the filters
        </button>
      </div>
    );
  }
  return (
    <div class="empty-library" data-testid="empty-library" data-why="empty">
      <p>
        <strong>No jobs yet.</strong> Make the first one on the <a href="#/create">Create</a> page (image to 3D, text to
        image, animation or retopology), or drop pictures (PNG, JPEG, WebP), FBX files or zips of them, or a folder of
        them, anywhere on this window: each becomes a job.
      </p>
      {active.length > 0 && (
        <button type="button" onClick={props.onClear}>
          Clear the filters
        </button>
      )}
    </div>
  );
}
