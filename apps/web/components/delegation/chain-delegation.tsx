'use client';
import { ExternalLink } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { tokenUrl } from '../../lib/delegation/status';
import type { MyDelegation } from '../../lib/delegation/use-my-delegations';
import { shortAddress } from '../../lib/governance/format';
import type { TokenRef } from '../../lib/governance/token';
import { sameAddress } from '../../lib/governance/types';
import { Address } from '../ui/address';
import { Notice } from '../ui/alert';

/**
 * An erc20-votes DAO (docs/governance.md, "Turning delegation on"): its delegation is the token's own,
 * on the chain. Says so, links the token, and shows whom each of my wallets delegates to there
 * (`chainDelegate`, read from the chain by governance.delegates.of).
 */
export function ChainDelegation({ token, mine }: { token: TokenRef; mine: MyDelegation[] }) {
  const t = useTranslations('delegation.page');
  const url = tokenUrl(token.chainId, token.address);
  const who = (wallet: string) => () => <Address address={wallet} copy={false} />;
  return (
    <div className="flex flex-col gap-3" data-testid="chain-delegation">
      <Notice>{t('chain', { symbol: token.symbol })}</Notice>
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <Address address={token.address} />
        {url && (
          <a className="inline-flex items-center gap-1 underline" href={url} target="_blank" rel="noreferrer">
            {t('chainLink')}
            <ExternalLink className="size-3.5" aria-hidden />
          </a>
        )}
      </p>
      {mine.length > 0 && (
        <ul className="flex flex-col gap-1 text-sm" data-testid="chain-delegates">
          {mine.map((m) => (
            <li key={m.wallet} className="flex flex-wrap items-center gap-1.5" data-wallet={m.wallet}>
              {m.chainDelegate === null ? (
                t.rich('chainNone', { wallet: shortAddress(m.wallet), who: who(m.wallet) })
              ) : sameAddress(m.chainDelegate, m.wallet) ? (
                t.rich('chainSelf', { wallet: shortAddress(m.wallet), who: who(m.wallet) })
              ) : (
                <>
                  {t.rich('chainYours', { wallet: shortAddress(m.wallet), who: who(m.wallet) })}
                  <Address address={m.chainDelegate} />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
