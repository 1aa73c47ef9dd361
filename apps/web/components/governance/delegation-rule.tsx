import { useTranslations } from 'next-intl';
import type { UseFormRegisterReturn } from 'react-hook-form';

/**
 * "Members may delegate their vote" (votingRules.delegation, docs/governance.md, "Turning delegation
 * on") in the create and settings forms; for an erc20-votes token a note instead: its own delegation
 * on the chain counts. `field`: react-hook-form's registration (create form), else a plain checkbox.
 */
export function DelegationRule({
  chain,
  field,
  defaultChecked,
}: {
  chain: boolean;
  field?: UseFormRegisterReturn<'delegation'>;
  defaultChecked?: boolean;
}) {
  const t = useTranslations('governance.createDao');
  if (chain)
    return (
      <p className="text-sm text-muted-foreground" data-testid="delegation-chain-note">
        {t('delegationChain')}
      </p>
    );
  return (
    <>
      <div className="checkbox">
        <input
          type="checkbox"
          id="delegation"
          aria-describedby="delegation-help"
          {...(field ?? { name: 'delegation', defaultChecked })}
        />
        <label htmlFor="delegation">{t('delegation')}</label>
      </div>
      <p id="delegation-help" className="text-sm text-muted-foreground">
        {t('delegationHelp')}
      </p>
    </>
  );
}
