'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { pollWhenNotLive } from '../../lib/governance/live-events';
import { FIRST_TAB_STATUS, proposalTabInput } from '../../lib/governance/page-reads';
import type { ProposalStatus } from '../../lib/governance/types';
import { pollOrRecover } from '../../lib/query-client';
import { useTRPC } from '../../lib/trpc';
import { Pager } from '../ui/pager';
import { QueryState } from '../ui/query-state';
import { ProposalList } from './proposal-list';
import { CardsSkeleton } from './skeletons';

type TabKey = 'active' | 'upcoming' | 'passed' | 'rejected' | 'cancelled' | 'all';
const EMPTY = {
  active: 'emptyActive',
  upcoming: 'emptyUpcoming',
  passed: 'emptyPassed',
  rejected: 'emptyRejected',
  cancelled: 'emptyCancelled',
  all: 'emptyAll',
} as const;
const TABS: { status: ProposalStatus | undefined; key: TabKey }[] = [
  { status: FIRST_TAB_STATUS, key: 'active' },
  { status: 'PENDING', key: 'upcoming' },
  { status: 'PASSED', key: 'passed' },
  { status: 'REJECTED', key: 'rejected' },
  { status: 'CANCELLED', key: 'cancelled' },
  { status: undefined, key: 'all' },
];

/** The DAO's proposals, one tab per status (WAI-ARIA tabs: arrow keys move between tabs). */
export function ProposalTabs({ daoId, live }: { daoId: string; live: boolean }) {
  const t = useTranslations('votes.proposalTabs');
  const trpc = useTRPC();
  const baseId = useId();
  const [active, setActive] = useState(0);
  const [page, setPage] = useState(1);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const tab = TABS[active] ?? TABS[0]!;
  const list = useQuery({
    ...trpc.governance.proposals.byDao.queryOptions(proposalTabInput(daoId, page, tab.status)),
    placeholderData: keepPreviousData,
    refetchInterval: pollOrRecover(pollWhenNotLive(live, 10_000)),
  });

  function select(i: number) {
    setActive(i);
    setPage(1);
    tabRefs.current[i]?.focus();
  }
  function onKeyDown(e: KeyboardEvent) {
    const last = TABS.length - 1;
    const to =
      e.key === 'ArrowRight'
        ? active === last
          ? 0
          : active + 1
        : e.key === 'ArrowLeft'
          ? active === 0
            ? last
            : active - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (to === null) return;
    e.preventDefault();
    select(to);
  }

  return (
    <div className="stack">
      <div role="tablist" aria-label={t('label')} className="tabs" onKeyDown={onKeyDown}>
        {TABS.map((tb, i) => (
          <button
            key={tb.key}
            ref={(el) => {
              tabRefs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${i}`}
            aria-selected={i === active}
            aria-controls={`${baseId}-panel`}
            tabIndex={i === active ? 0 : -1}
            className="tab"
            onClick={() => select(i)}
          >
            {t(tb.key)}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-panel`}
        aria-labelledby={`${baseId}-tab-${active}`}
        className="stack"
      >
        <QueryState query={list} loading={<CardsSkeleton count={2} testId="proposals-skeleton" />}>
          {(data) => (
            <>
              <ProposalList proposals={data.items} empty={t(EMPTY[tab.key])} />
              <Pager
                label={t('pages')}
                page={page}
                pageCount={data.pagination.totalPages}
                onPageChange={setPage}
              />
            </>
          )}
        </QueryState>
      </div>
    </div>
  );
}
