'use client';
import { VOTING_SYSTEM_NAMES } from '@plenum/validators/voting-systems';
import { useTranslations } from 'next-intl';
import { useId } from 'react';
import type { VotingSystem } from '../../lib/governance/systems';
import { FieldErrors } from '../ui/field';

/** A voting system's name and one-line explanation in the page's language. */
export function useSystemText() {
  const t = useTranslations('governance.systems');
  return (system: VotingSystem) => ({ name: t(`${system}.name`), explanation: t(`${system}.explanation`) });
}

/** The radio + label + hint rows of the voting-system and token choices. */
export const CHOICE_ROW = 'grid grid-cols-[auto_minmax(0,1fr)] items-baseline gap-x-2';
export const CHOICE_INPUT = 'm-0 size-[1.15rem] self-center';

/** The proposal's voting system: one radio per system, each with its one-line explanation. */
export function VotingSystemField({
  value,
  onChange,
  errors,
}: {
  value: VotingSystem;
  onChange: (system: VotingSystem) => void;
  errors?: string[] | undefined;
}) {
  const id = useId();
  const t = useTranslations('governance.newProposal');
  const text = useSystemText();
  return (
    <fieldset
      className="flex min-w-0 flex-col gap-3"
      aria-describedby={errors?.length ? `${id}-errors` : undefined}
      data-testid="voting-system-field"
    >
      <legend className="font-semibold">{t('system')}</legend>
      {VOTING_SYSTEM_NAMES.map((s) => (
        <div key={s} className={CHOICE_ROW}>
          <input
            type="radio"
            id={`${id}-${s}`}
            className={CHOICE_INPUT}
            name="votingSystem"
            value={s}
            checked={value === s}
            aria-describedby={`${id}-${s}-hint`}
            onChange={() => onChange(s)}
          />
          <label htmlFor={`${id}-${s}`} className="font-semibold">
            {text(s).name}
          </label>
          <span id={`${id}-${s}-hint`} className="col-start-2 text-sm text-muted-foreground">
            {text(s).explanation}
          </span>
        </div>
      ))}
      <FieldErrors id={`${id}-errors`} name="votingSystem" errors={errors} />
    </fieldset>
  );
}
