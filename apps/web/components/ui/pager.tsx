'use client';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { cn } from '../../lib/cn';
import { Button } from './button';

/**
 * Previous / "Page 2 of 5" / Next. Renders nothing when everything fits on one page (or there is nothing),
 * and its words never break: the buttons shrink to icons on narrow screens, keeping their names.
 */
export function Pager({
  page,
  pageCount,
  onPageChange,
  className,
  label,
}: {
  /** 1-based */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  className?: string;
  /** names the navigation landmark when a page has more than one pager */
  label?: string;
}) {
  const t = useTranslations('common.pager');
  if (pageCount <= 1) return null;
  return (
    <nav
      aria-label={label ?? t('label')}
      className={cn('flex items-center justify-between gap-2', className)}
      data-slot="pager"
    >
      <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
        <ChevronLeft aria-hidden />
        <span className="max-sm:sr-only">{t('previous')}</span>
      </Button>
      <span className="text-sm whitespace-nowrap text-muted-foreground" aria-live="polite">
        {t('pageOf', { page, count: pageCount })}
      </span>
      <Button variant="outline" size="sm" disabled={page >= pageCount} onClick={() => onPageChange(page + 1)}>
        <span className="max-sm:sr-only">{t('next')}</span>
        <ChevronRight aria-hidden />
      </Button>
    </nav>
  );
}
