'use client';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { delegateLines, type PowerWithDelegate } from '../../lib/delegation/status';
import { formatBallot, shortAddress } from '../../lib/governance/format';
import type { TokenRef } from '../../lib/governance/token';
import type { Proposal } from '../../lib/governance/types';
import { useAmounts } from '../../lib/governance/use-amounts';
import { Address } from '../ui/address';

/**
 * The proposal page's delegation lines (docs/governance.md, "Counting"), from my wallets' voting power:
 * what my delegate did with my weight and that voting myself overrides it, that I did, or how many
 * delegators I vote for. One line per wallet and situation; "for 0x…" names the wallet when I have several.
 */
export function DelegationStatus({
  proposal,
  powers,
  token,
}: {
  proposal: Pick<Proposal, 'votingSystem' | 'votingOptions'>;
  powers: PowerWithDelegate[];
  token: Pick<TokenRef, 'decimals' | 'symbol'> | null;
}) {
  const t = useTranslations('delegation.proposal');
  const tv = useTranslations('governance.vote');
  const amounts = useAmounts();
  const lines = delegateLines(powers);
  if (lines.length === 0) return null;
  const several = powers.length > 1;
  const who = (address: string) => () => <Address address={address} copy={false} />;
  const strong = (text: ReactNode) => <strong>{text}</strong>;
  return (
    <ul className="flex flex-col gap-1.5 text-sm" data-testid="delegation-status">
      {lines.map((line) => {
        let text: ReactNode;
        if (line.kind === 'asDelegate')
          text = t('asDelegate', { count: line.count, weight: amounts.tokenWeight(line.weight, token) });
        else {
          const delegate = shortAddress(line.delegate);
          const choice =
            line.kind === 'delegateVoted'
              ? formatBallot(line.choice, proposal.votingSystem, proposal.votingOptions, tv('noneApproved'))
              : null;
          text =
            line.kind === 'delegateVoted'
              ? choice === null
                ? t.rich('delegateVotedHidden', { delegate, who: who(line.delegate) })
                : t.rich('delegateVoted', { delegate, choice, who: who(line.delegate), strong })
              : t.rich(line.kind, { delegate, who: who(line.delegate) });
        }
        return (
          <li
            key={`${line.kind}:${line.wallet}`}
            className="rounded-md border border-primary/30 bg-primary/5 p-2.5"
            data-testid="delegation-line"
            data-kind={line.kind}
            data-wallet={line.wallet}
          >
            {text}
            {several && (
              <span className="text-muted-foreground" title={line.wallet}>
                {' '}
                ({t('wallet', { wallet: shortAddress(line.wallet) })})
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
