'use client';

/**
 * Previous / next with "page x of y" for the API's `{ total, page, limit, totalPages }` (docs/api.md,
 * "Lists").
 */
export function Pager(props: {
  label: string;
  page: number;
  totalPages: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const { page, totalPages } = props;
  return (
    <nav className="pager" aria-label={props.label}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => props.onPage(page - 1)}>
        Previous
      </button>
      <span className="muted">
        Page {page} of {Math.max(1, totalPages)} · {props.total} in all
      </span>
      <button
        type="button"
        className="secondary"
        disabled={page >= totalPages}
        onClick={() => props.onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
