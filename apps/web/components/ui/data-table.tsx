// biome-ignore-all lint/a11y/noRedundantRoles: the explicit roles keep the table's semantics when 'stack' mode changes its display (Safari drops them otherwise)
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface Column<Row> {
  /** stable id of the column (React key, data-column on its cells) */
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** label shown before the value when rows stack as cards on small screens (defaults to header) */
  label?: string;
  className?: string;
  /** the column headers' aria-sort, for sortable tables that render their own sort buttons in `header` */
  sort?: 'ascending' | 'descending' | 'none';
}

interface DataTableProps<Row> {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** names the table for screen readers (shown, or sr-only with captionHidden) */
  caption: ReactNode;
  captionHidden?: boolean;
  /**
   * below 768 px: 'stack' shows each row as a card of label: value lines (the default); 'scroll' keeps the
   * table and lets it scroll sideways inside its own box. The page itself never scrolls sideways.
   */
  mobile?: 'stack' | 'scroll';
  /** shown in place of the table when there are no rows (an <EmptyState>) */
  empty?: ReactNode;
  onRowClick?: (row: Row) => void;
  rowProps?: (row: Row) => Record<string, string | undefined>;
  className?: string;
}

/**
 * One table for every screen size. At 768 px and up it is a real table; in 'stack' mode, below that, its
 * rows become cards through CSS alone (the explicit ARIA roles keep the table semantics when the display
 * changes), so tests and screen readers find the same elements at both widths.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
  captionHidden,
  mobile = 'stack',
  empty,
  onRowClick,
  rowProps,
  className,
}: DataTableProps<Row>) {
  if (rows.length === 0 && empty) return <>{empty}</>;
  const stack = mobile === 'stack';
  return (
    <div
      data-slot="data-table"
      className={cn(
        'w-full max-w-full min-w-0 rounded-lg border',
        !stack && 'overflow-x-auto',
        stack && 'max-md:border-0',
        className,
      )}
    >
      <table
        role="table"
        className={cn('w-full border-collapse text-sm', stack && 'max-md:block', !stack && 'min-w-max')}
      >
        <caption className={cn('px-3 py-2 text-left font-medium', captionHidden && 'sr-only')}>
          {caption}
        </caption>
        <thead role="rowgroup" className={cn('bg-muted/60', stack && 'max-md:sr-only')}>
          <tr role="row">
            {columns.map((c) => (
              <th
                key={c.id}
                role="columnheader"
                scope="col"
                aria-sort={c.sort}
                className={cn(
                  'px-3 py-2 text-left font-medium whitespace-nowrap text-muted-foreground',
                  c.className,
                )}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className={cn(stack && 'max-md:flex max-md:flex-col max-md:gap-3')}>
          {rows.map((row) => (
            <tr
              role="row"
              key={rowKey(row)}
              onClick={onRowClick ? () => onRowClick(row) : undefined}
              className={cn(
                'border-t align-top',
                onRowClick && 'cursor-pointer hover:bg-accent/60',
                stack &&
                  'max-md:flex max-md:flex-col max-md:gap-1 max-md:rounded-lg max-md:border max-md:bg-card max-md:p-3',
              )}
              {...rowProps?.(row)}
            >
              {columns.map((c) => (
                <td
                  key={c.id}
                  role="cell"
                  data-column={c.id}
                  data-label={c.label ?? (typeof c.header === 'string' ? c.header : undefined)}
                  className={cn(
                    'min-w-0 px-3 py-2',
                    stack &&
                      'max-md:grid max-md:grid-cols-[minmax(6rem,35%)_1fr] max-md:gap-2 max-md:p-0 max-md:before:font-medium max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)]',
                    c.className,
                  )}
                >
                  {stack ? <div className="min-w-0">{c.cell(row)}</div> : c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
