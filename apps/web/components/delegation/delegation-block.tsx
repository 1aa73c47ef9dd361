'use client';
import { Users } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { delegationMode, walletsThatMayDelegate } from '../../lib/delegation/status';
import { useMyDelegations } from '../../lib/delegation/use-my-delegations';
import { shortAddress } from '../../lib/governance/format';
import type { Dao } from '../../lib/governance/types';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { Address } from '../ui/address';
import { Button } from '../ui/button';
import { RemoveDelegation } from './remove-delegation';

/**
 * The DAO page's Delegation block (docs/governance.md, "In the web app"), shown when the DAO delegates:
 * whom each of my wallets delegates to, with Change and Remove, or "You vote yourself" with a link to
 * delegate; and the Delegates page for everyone. An erc20-votes DAO links its Delegates page (the
 * token's own delegation) and nothing else.
 */
export function DelegationBlock({ dao }: { dao: Dao }) {
  const t = useTranslations('delegation.block');
  const mine = useMyWallets();
  const my = useMyDelegations(dao.daoId);
  const mode = delegationMode(dao.votingRules);
  if (mode === 'off') return null;
  const href = `/daos/${dao.daoId}/delegates`;
  const delegating = my.delegations.filter((d) => d.delegate);
  const mayDelegate = walletsThatMayDelegate(dao.votingRules, dao.members, mine.wallets).length > 0;
  return (
    <section
      aria-labelledby="delegation-heading"
      className="flex flex-col gap-2 rounded-lg border bg-card p-4 text-sm"
      data-testid="delegation-block"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="delegation-heading" className="text-base font-semibold">
          {t('heading')}
        </h2>
        <Link className="inline-flex items-center gap-1.5 underline" href={href} data-testid="delegates-link">
          <Users className="size-4" aria-hidden />
          {t('delegates')}
        </Link>
      </div>
      {mode === 'chain' ? (
        <p className="text-muted-foreground">{t('chain')}</p>
      ) : delegating.length > 0 ? (
        <ul className="flex flex-col gap-2">
          {delegating.map((d) => (
            <li
              key={d.wallet}
              className="flex flex-wrap items-center gap-x-2 gap-y-1"
              data-testid="you-delegate"
              data-wallet={d.wallet}
              data-delegate={d.delegate}
            >
              <span className="inline-flex flex-wrap items-center gap-1.5">
                <span>{t('youDelegate')}</span>
                {d.delegate && <Address address={d.delegate} copy={false} />}
                {my.delegations.length > 1 && (
                  <span className="text-muted-foreground" title={d.wallet}>
                    {t('fromWallet', { wallet: shortAddress(d.wallet) })}
                  </span>
                )}
              </span>
              <span className="flex gap-2">
                <Button asChild variant="outline" size="sm">
                  <Link href={href}>{t('change')}</Link>
                </Button>
                <RemoveDelegation
                  daoId={dao.daoId}
                  delegations={[d]}
                  label={t('remove')}
                  onDone={() => void my.refresh()}
                />
              </span>
            </li>
          ))}
        </ul>
      ) : !my.loading && (mayDelegate || my.delegations.length > 0) ? (
        <p data-testid="you-vote-yourself">
          {t('youVote')}{' '}
          <Link className="underline" href={href}>
            {t('delegateYours')}
          </Link>
        </p>
      ) : (
        <p className="text-muted-foreground">{t('explain')}</p>
      )}
    </section>
  );
}
