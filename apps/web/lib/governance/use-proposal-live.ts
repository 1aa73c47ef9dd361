'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTRPC } from '../trpc';
import { type LiveEvent, refetchFresh, useLiveEvents } from './live-events';
import { newerResults } from './results-order';
import type { Proposal, ProposalStatus, Results } from './types';

/**
 * Keeps one proposal's cached results, status and votes current from the live event stream:
 * results arrive inside each `vote_cast` / `proposal_status_changed` event (no refetch), the vote
 * list and the voting power (delegation, docs/governance.md, "Counting") refetch at most once a
 * second. Returns whether the stream is live (else callers poll).
 */
export function useProposalLive(proposalId: string | undefined) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);

  const votesKeys = (id: string) => {
    const proposal = queryClient.getQueryData(trpc.governance.proposals.get.queryKey({ proposalId: id }));
    return [
      trpc.governance.votes.byProposal.queryKey({ proposalId: id }),
      trpc.governance.proposals.get.queryKey({ proposalId: id }),
      trpc.governance.votes.byVoter.queryKey({ proposalId: id }),
      // with delegation a vote moves the voting power too: a delegate's delegated weight, a delegator's
      // "your delegate voted" (a holder's power may be a chain read: not refetched without delegation)
      ...(proposal?.votingRules.delegation ? [trpc.governance.votes.power.queryKey({ proposalId: id })] : []),
    ];
  };

  const refetchVotesSoon = () => {
    if (pending.current || !proposalId) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void refetchFresh(queryClient, votesKeys(proposalId));
    }, 1_000);
  };

  function apply(event: LiveEvent) {
    if (!proposalId || event.proposalId !== proposalId) return;
    // the discussion (docs/discussion.md): read the thread again, as the reader sees it (hidden text)
    if (event.type === 'comment_posted' || event.type === 'comment_updated') {
      void queryClient.invalidateQueries({
        queryKey: trpc.governance.comments.list.queryKey({ proposalId }),
      });
      return;
    }
    const results = event.data.results as Results | undefined;
    if (results) {
      queryClient.setQueryData(trpc.governance.votes.results.queryKey({ proposalId }), (old) =>
        newerResults(old, results),
      );
    }
    if (event.type === 'proposal_status_changed') {
      const to = event.data.to as ProposalStatus;
      // the closing event carries the record's CID (docs/governance.md, "The proposal record")
      const recordCid = typeof event.data.recordCid === 'string' ? event.data.recordCid : undefined;
      queryClient.setQueryData(trpc.governance.proposals.get.queryKey({ proposalId }), (old) =>
        old ? ({ ...old, status: to, ...(recordCid ? { recordCid } : {}) } satisfies Proposal) : old,
      );
      // lists that show this proposal (DAO tabs, dashboard) move it to its new tab
      void queryClient.invalidateQueries({ queryKey: trpc.governance.proposals.pathKey() });
    }
    refetchVotesSoon();
  }

  const events = ['vote_cast', 'proposal_status_changed', 'comment_posted', 'comment_updated'] as const;
  return useLiveEvents(proposalId ? { proposalId, events: [...events] } : null, {
    onEvent: apply,
    // a vote committed after the first read but before the subscription is in no event: read again
    onResync: () => {
      if (!proposalId) return;
      void refetchFresh(queryClient, [
        trpc.governance.votes.results.queryKey({ proposalId }),
        ...votesKeys(proposalId),
        trpc.governance.comments.list.queryKey({ proposalId }),
      ]);
    },
  });
}
