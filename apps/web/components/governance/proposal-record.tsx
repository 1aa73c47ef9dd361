'use client';
import { useTranslations } from 'next-intl';
import { useApiUrl } from '../../lib/api-url';
import { recordCarFilename, recordCarUrl, verifyCommand } from '../../lib/governance/record';
import { useProposalRecord } from '../../lib/governance/use-proposal-record';
import { CopyButton } from '../files/copy-button';
import { DateTime } from '../ui/date-time';
import { ErrorRetry } from '../ui/query-state';

/**
 * "Verifiable record": a closed proposal's record CID, the CAR to download and the one line that recounts
 * it offline with the server's key pinned, and whether the server's IPFS node holds it yet
 * (docs/governance.md, "The proposal record"). Nothing while the proposal is open: no record is fixed.
 */
export function ProposalRecord({
  proposalId,
  recordCid,
}: {
  proposalId: string;
  recordCid: string | null | undefined;
}) {
  const t = useTranslations('governance.record');
  const apiUrl = useApiUrl();
  const record = useProposalRecord(proposalId, recordCid);
  if (!recordCid) return null;
  const data = record.data;
  return (
    <section
      aria-labelledby="record-heading"
      className="flex min-w-0 flex-col gap-3 rounded-lg border bg-card p-4 text-sm"
      data-testid="record"
    >
      <h2 id="record-heading" className="text-lg font-semibold">
        {t('heading')}
      </h2>
      <p className="min-w-0">
        {t('cid')}{' '}
        <code className="font-mono text-xs break-all select-all" data-testid="record-cid">
          {recordCid}
        </code>
      </p>
      <div>
        <CopyButton
          text={recordCid}
          label={t('copyCid')}
          copiedLabel={t('copied')}
          failedLabel={t('copyFailed')}
          testId="copy-record-cid"
        />
      </div>
      {record.isError && (
        <ErrorRetry error={record.error} retrying={record.isFetching} onRetry={() => void record.refetch()} />
      )}
      {data && (
        <>
          <p>
            <a
              className="underline underline-offset-4"
              href={recordCarUrl(apiUrl, proposalId)}
              download={recordCarFilename(proposalId)}
              data-testid="record-car"
            >
              {t('download')}
            </a>
          </p>
          <p
            className="text-muted-foreground"
            data-testid="record-stored"
            data-published={!!data.publishedAt}
          >
            {data.publishedAt
              ? t.rich('stored', { when: () => <DateTime value={data.publishedAt ?? ''} /> })
              : t('notStored')}
          </p>
          <div className="flex min-w-0 flex-col gap-2">
            <p>{t('recount')}</p>
            <code
              className="block rounded-md bg-muted p-2 font-mono text-xs break-all"
              data-testid="record-command"
            >
              {verifyCommand(proposalId, data.publicKey)}
            </code>
            <div>
              <CopyButton
                text={verifyCommand(proposalId, data.publicKey)}
                label={t('copyCommand')}
                copiedLabel={t('copied')}
                failedLabel={t('copyFailed')}
                testId="copy-record-command"
              />
            </div>
          </div>
        </>
      )}
    </section>
  );
}
