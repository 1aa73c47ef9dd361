'use client';
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { receiptDataUrl, receiptFilename } from '../../lib/governance/record';
import type { Proposal } from '../../lib/governance/types';
import { useProposalRecord } from '../../lib/governance/use-proposal-record';
import { useTRPC } from '../../lib/trpc';
import { ErrorRetry } from '../ui/query-state';

/** a receipt CID as a quiet, wrapping monospace line */
export function ReceiptCid({ cid, testId }: { cid: string; testId: string }) {
  return (
    <code className="font-mono text-xs break-all select-all" data-testid={testId}>
      {cid}
    </code>
  );
}

/**
 * A voter's own vote's receipt once the proposal's record is on the server's IPFS node: its leaf in the
 * record (GET /votes/{voteId}/receipt), folded away, with the proof as a file the verifier checks
 * (`npm run verify -- <car> --receipt receipt-<voteId>.json`; docs/governance.md, "The proposal record").
 */
export function VoteReceipt({ proposal, voteId }: { proposal: Proposal; voteId: string }) {
  const t = useTranslations('governance.receipt');
  const trpc = useTRPC();
  const record = useProposalRecord(proposal.proposalId, proposal.recordCid);
  const published = !!record.data?.publishedAt;
  const receipt = useQuery({
    ...trpc.governance.votes.receipt.queryOptions({ voteId }),
    enabled: published,
    // a receipt never changes once the record is published
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (!published) return null;
  return (
    <details className="mt-1 text-xs" data-testid="vote-receipt">
      <summary className="cursor-pointer text-muted-foreground">{t('summary')}</summary>
      <div className="mt-1 flex min-w-0 flex-col gap-1">
        {receipt.isError && (
          <ErrorRetry
            error={receipt.error}
            retrying={receipt.isFetching}
            onRetry={() => void receipt.refetch()}
          />
        )}
        {receipt.data && (
          <>
            <p className="min-w-0">
              {t('leaf')} <ReceiptCid cid={receipt.data.leaf} testId="receipt-leaf" />
            </p>
            <p className="text-muted-foreground">{t('explain')}</p>
            <p>
              <a
                className="underline underline-offset-4"
                href={receiptDataUrl(receipt.data)}
                download={receiptFilename(voteId)}
                data-testid="receipt-download"
              >
                {t('download')}
              </a>
            </p>
          </>
        )}
      </div>
    </details>
  );
}
