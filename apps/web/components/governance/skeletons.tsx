'use client';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Skeleton } from '../ui/skeleton';

/** A page's placeholder: announced once to screen readers, drawn in the shape of what will come. */
function Placeholder({
  testId,
  className,
  children,
}: {
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  const t = useTranslations('common.query');
  return (
    <div role="status" aria-live="polite" data-testid={testId} className={className}>
      <span className="sr-only">{t('loading')}</span>
      {children}
    </div>
  );
}

/** Cards of a DAO or proposal list (the dashboard's sections, the directory). */
export function CardsSkeleton({ count = 3, testId = 'cards-skeleton' }: { count?: number; testId?: string }) {
  return (
    <Placeholder testId={testId}>
      <CardsPlain count={count} />
    </Placeholder>
  );
}

/** The dashboard below its title: active proposals, DAOs I own, DAOs I am a member of. */
export function DashboardSkeleton() {
  return (
    <Placeholder testId="dashboard-skeleton" className="flex flex-col gap-4">
      {[2, 1, 1].map((count, i) => (
        <div key={i} className="flex flex-col gap-4">
          <Skeleton className="h-7 w-48" />
          <CardsPlain count={count} />
        </div>
      ))}
    </Placeholder>
  );
}

function CardsPlain({ count }: { count: number }) {
  return (
    <div className="flex flex-col gap-3">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="flex flex-col gap-2 rounded-xl border p-4">
          <Skeleton className="h-5 w-1/3" />
          <Skeleton className="h-4 w-2/3" />
        </div>
      ))}
    </div>
  );
}

/** The DAO page: header (name, rules summary, counts), the proposal tabs and rows, members. */
export function DaoSkeleton() {
  return (
    <Placeholder testId="dao-skeleton" className="flex min-w-0 flex-col gap-8">
      <div className="flex flex-col gap-3">
        <Skeleton className="h-8 w-64 max-w-full" />
        <Skeleton className="h-4 w-full max-w-xl" />
        <div className="flex flex-wrap gap-2">
          {[24, 20, 28, 32].map((w) => (
            <Skeleton key={w} className="h-6 rounded-full" style={{ width: `${w * 4}px` }} />
          ))}
        </div>
        <Skeleton className="h-4 w-40" />
      </div>
      <div className="flex flex-col gap-3">
        <Skeleton className="h-6 w-40" />
        <Skeleton className="h-9 w-full max-w-md" />
        <CardsPlain count={2} />
      </div>
      <div className="flex flex-col gap-3">
        <Skeleton className="h-6 w-32" />
        <Skeleton className="h-5 w-72 max-w-full" />
        <Skeleton className="h-5 w-72 max-w-full" />
      </div>
    </Placeholder>
  );
}

/** The proposal page: the body (crumb, title, author, tabs, description) beside the side column's cards. */
export function ProposalSkeleton() {
  return (
    <Placeholder testId="proposal-skeleton" className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="flex min-w-0 flex-col gap-4">
        <Skeleton className="h-4 w-40" />
        <Skeleton className="h-8 w-3/4" />
        <Skeleton className="h-4 w-64 max-w-full" />
        <Skeleton className="h-9 w-48" />
        {['w-full', 'w-full', 'w-5/6', 'w-2/3', 'w-full', 'w-1/2'].map((w, i) => (
          <Skeleton key={i} className={cn('h-4', w)} />
        ))}
      </div>
      <div className="flex min-w-0 flex-col gap-6">
        {[40, 32, 36].map((h) => (
          <div key={h} className="flex flex-col gap-3 rounded-lg border p-4">
            <Skeleton className="h-6 w-32" />
            <Skeleton className="w-full" style={{ height: `${h * 4}px` }} />
          </div>
        ))}
      </div>
    </Placeholder>
  );
}
