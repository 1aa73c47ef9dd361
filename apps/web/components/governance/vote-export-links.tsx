'use client';
import { useTranslations } from 'next-intl';
import { useApiUrl } from '../../lib/api-url';
import { useResults } from '../../lib/governance/use-results';
import { VOTE_EXPORT_FORMATS, voteExportFilename, voteExportUrl } from '../../lib/governance/vote-export';

/**
 * "Download votes (CSV)" and "(JSON)": plain links to the API's export (a streamed download with
 * Content-Disposition: attachment), so the browser saves the file itself, whatever its size. Only once
 * there are votes (read from the results the page already holds): an empty file helps nobody.
 */
export function VoteExportLinks({ proposalId }: { proposalId: string }) {
  const t = useTranslations('governance.proposal');
  const apiUrl = useApiUrl();
  // the page's own results query, read from the cache: this adds no request
  const results = useResults(proposalId, { pollMs: false, enabled: false });
  if (!results.data?.totalVotes) return null;
  return (
    <p className="text-sm" data-testid="vote-export">
      {VOTE_EXPORT_FORMATS.map(({ format, label }, i) => (
        <span key={format}>
          {i > 0 && ' · '}
          <a
            href={voteExportUrl(apiUrl, proposalId, format)}
            download={voteExportFilename(proposalId, format)}
          >
            {t('download', { format: label })}
          </a>
        </span>
      ))}
    </p>
  );
}
