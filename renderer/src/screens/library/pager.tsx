// Page numbers of a long list: first, last, and the pages around the current one.
import { Fragment } from 'preact';

export function Pager({
  page,
  pages,
  onPage,
  label,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  label: string;
}) {
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
          <button
            type="button"
            aria-current={p === page ? 'page' : undefined}
            aria-label={`Page ${p}`}
            onClick={() => onPage(p)}
          >
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
