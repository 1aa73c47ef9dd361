'use client';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { cn } from '../../lib/cn';
import { isLongStatement, participation } from '../../lib/delegation/status';
import type { MyDelegation } from '../../lib/delegation/use-my-delegations';
import type { TokenRef } from '../../lib/governance/token';
import { useAmounts } from '../../lib/governance/use-amounts';
import { usePercent } from '../../lib/i18n/use-format';
import { Markdown } from '../governance/markdown';
import { Address } from '../ui/address';
import { Button } from '../ui/button';
import { RemoveDelegation } from './remove-delegation';

export interface DelegateItem {
  address: string;
  delegatorCount: number;
  delegatedWeight: string;
  ownWeight: string;
  statement: string | null;
  proposalsVoted: number;
  participationRate: number | null;
}

/**
 * One delegate of the ranked list: rank, address (by profile name), delegated weight and delegators, own
 * weight, participation, the statement (collapsed when long); "Your delegate" with Remove, or Delegate.
 */
export function DelegateRow({
  daoId,
  rank,
  item,
  token,
  mine,
  isMe,
  onDelegate,
  onChanged,
}: {
  daoId: string;
  rank: number;
  item: DelegateItem;
  token: Pick<TokenRef, 'decimals' | 'symbol'> | null;
  /** my wallets' delegations to this delegate */
  mine: MyDelegation[];
  /** the delegate is one of my wallets */
  isMe: boolean;
  /** undefined: no Delegate button (not mine to give, delegation off, or already my delegate) */
  onDelegate: (() => void) | undefined;
  onChanged: () => void;
}) {
  const t = useTranslations('delegation.list');
  const amounts = useAmounts();
  const percent = usePercent();
  const statementId = useId();
  const [expanded, setExpanded] = useState(false);
  const part = participation(item.proposalsVoted, item.participationRate);
  const long = item.statement ? isLongStatement(item.statement) : false;
  return (
    <li
      className="flex min-w-0 flex-col gap-3 border-b pb-4"
      data-testid="delegate-row"
      data-address={item.address}
      data-rank={rank}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <span className="w-8 shrink-0 font-mono text-sm text-muted-foreground">
            <span aria-hidden>#{rank}</span>
            <span className="sr-only">{t('rank', { rank })}</span>
          </span>
          <Address address={item.address} />
          {isMe && <span className="badge">{t('you')}</span>}
          {mine.length > 0 && (
            <span className="badge" data-testid="your-delegate">
              {t('yourDelegate')}
            </span>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {mine.length > 0 && <RemoveDelegation daoId={daoId} delegations={mine} onDone={onChanged} />}
          {onDelegate && (
            <Button
              size="sm"
              onClick={onDelegate}
              aria-label={t('delegateTo', { address: item.address })}
              data-testid="delegate-button"
            >
              {t('delegate')}
            </Button>
          )}
        </div>
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-muted-foreground">{t('delegated')}</dt>
          <dd data-testid="delegated-weight" data-weight={item.delegatedWeight}>
            {amounts.tokenWeight(item.delegatedWeight, token)}{' '}
            <span
              className="text-muted-foreground"
              data-testid="delegator-count"
              data-count={item.delegatorCount}
            >
              ({t('delegators', { count: item.delegatorCount })})
            </span>
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{t('own')}</dt>
          <dd data-testid="own-weight">{amounts.tokenWeight(item.ownWeight, token)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{t('participation')}</dt>
          <dd data-testid="participation">
            {part.percent === null
              ? t('noProposals')
              : part.total === null
                ? t('votedNone')
                : t('votedIn', {
                    voted: part.voted,
                    total: part.total,
                    percent: percent(Math.round(part.percent)),
                  })}
          </dd>
        </div>
      </dl>
      {item.statement ? (
        <div className="flex flex-col gap-1" data-testid="delegate-statement">
          <div id={statementId} className={cn(long && !expanded && 'relative max-h-40 overflow-hidden')}>
            <Markdown>{item.statement}</Markdown>
            {long && !expanded && (
              <div className="pointer-events-none absolute inset-x-0 bottom-0 h-12 bg-gradient-to-t from-background" />
            )}
          </div>
          {long && (
            <Button
              variant="link"
              size="sm"
              className="self-start"
              aria-expanded={expanded}
              aria-controls={statementId}
              onClick={() => setExpanded((e) => !e)}
            >
              {expanded ? t('showLess') : t('showMore')}
            </Button>
          )}
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">{t('noStatement')}</p>
      )}
    </li>
  );
}
