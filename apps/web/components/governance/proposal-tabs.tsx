'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { governanceError } from '../../lib/governance/errors';
import { pollWhenNotLive } from '../../lib/governance/live-events';
import type { ProposalStatus } from '../../lib/governance/types';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { Pager } from './controls';
import { ProposalList } from './proposal-list';

const TABS: { status: ProposalStatus | undefined; label: string }[] = [
  { status: 'ACTIVE', label: 'Active' },
  { status: 'PENDING', label: 'Upcoming' },
  { status: 'PASSED', label: 'Passed' },
  { status: 'REJECTED', label: 'Rejected' },
  { status: undefined, label: 'All' },
];

/** The DAO's proposals, one tab per status (WAI-ARIA tabs: arrow keys move between tabs). */
export function ProposalTabs({ daoId, live }: { daoId: string; live: boolean }) {
  const trpc = useTRPC();
  const baseId = useId();
  const [active, setActive] = useState(0);
  const [page, setPage] = useState(1);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const tab = TABS[active] ?? TABS[0]!;
  const list = useQuery({
    ...trpc.governance.proposals.byDao.queryOptions({
      daoId,
      page,
      limit: 20,
      ...(tab.status ? { status: tab.status } : {}),
    }),
    placeholderData: keepPreviousData,
    refetchInterval: pollWhenNotLive(live, 10_000),
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
      <div role="tablist" aria-label="Proposals by status" className="tabs" onKeyDown={onKeyDown}>
        {TABS.map((t, i) => (
          <button
            key={t.label}
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
            {t.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-panel`}
        aria-labelledby={`${baseId}-tab-${active}`}
        className="stack"
      >
        {list.isError && <ErrorAlert error={governanceError(list.error)} />}
        {list.data && (
          <>
            <ProposalList
              proposals={list.data.items}
              empty={tab.status ? `No ${tab.label.toLowerCase()} proposals.` : 'No proposals yet.'}
            />
            <Pager
              label="Proposal pages"
              page={page}
              totalPages={list.data.pagination.totalPages}
              onPage={setPage}
            />
          </>
        )}
      </div>
    </div>
  );
}
