'use client';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { useTranslations } from 'next-intl';

export type SortKey = 'createdAt' | 'lastLoginAt' | 'email' | 'name' | 'status' | 'role';
export interface SortState {
  key: SortKey;
  order: 'asc' | 'desc';
}

/** A column header that sorts by its column: first ascending, then descending (the header has aria-sort). */
export function SortButton({
  sortKey,
  label,
  state,
  onSort,
}: {
  sortKey: SortKey;
  label: string;
  state: SortState;
  onSort: (key: SortKey) => void;
}) {
  const t = useTranslations('admin.users');
  const active = state.key === sortKey;
  const Icon = !active ? ArrowUpDown : state.order === 'asc' ? ArrowUp : ArrowDown;
  return (
    <button
      type="button"
      className="inline-flex items-center gap-1 rounded bg-transparent p-0 font-medium text-inherit hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 outline-none"
      aria-label={t('sortBy', { column: label })}
      data-order={active ? state.order : undefined}
      onClick={() => onSort(sortKey)}
    >
      {label}
      <Icon className="size-3.5" aria-hidden />
    </button>
  );
}
