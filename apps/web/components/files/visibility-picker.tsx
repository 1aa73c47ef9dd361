'use client';
import { useQueries } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { useTRPC } from '../../lib/trpc';
import { Select } from '../ui/select';

export interface VisibilityChoice {
  visibility: 'public' | 'private' | 'dao';
  daoId: string | null;
}

export const PUBLIC: VisibilityChoice = { visibility: 'public', daoId: null };

/** the DAOs any of the caller's wallets is a member of: a members-only file is for one of them */
function useMyDaos() {
  const trpc = useTRPC();
  const { wallets } = useMyWallets();
  const lists = useQueries({
    queries: wallets
      .slice(0, 5)
      .map((member) => trpc.governance.daos.list.queryOptions({ member, limit: 100 })),
  });
  const seen = new Map<string, string>();
  for (const l of lists) for (const d of l.data?.items ?? []) seen.set(d.daoId, d.name);
  return [...seen].map(([id, name]) => ({ id, name }));
}

/**
 * Who may open a file (docs/storage.md, "Private and members-only files"): anyone with the CID, only the
 * owner, or the members of one of the caller's DAOs. A DAO choice without a DAO picked is not offered
 * until one is.
 */
export function VisibilityPicker({
  value,
  onChange,
  label,
  testId,
}: {
  value: VisibilityChoice;
  onChange: (v: VisibilityChoice) => void;
  label: string;
  testId: string;
}) {
  const t = useTranslations('files.visibility');
  const daos = useMyDaos();
  const id = useId();
  const daoFieldId = useId();
  const selected = value.visibility === 'dao' ? `dao:${value.daoId ?? ''}` : value.visibility;
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2" data-testid={testId}>
      <label htmlFor={id} className="shrink-0 text-sm font-medium">
        {label}
      </label>
      <Select
        id={id}
        className="h-9 w-auto text-sm"
        wrapperClassName="w-auto max-w-full"
        value={selected}
        aria-describedby={daoFieldId}
        onChange={(e) => {
          const v = e.target.value;
          if (v.startsWith('dao:')) onChange({ visibility: 'dao', daoId: v.slice(4) });
          else onChange({ visibility: v as 'public' | 'private', daoId: null });
        }}
      >
        <option value="public">{t('public')}</option>
        <option value="private">{t('private')}</option>
        {daos.map((d) => (
          <option key={d.id} value={`dao:${d.id}`}>
            {t('dao', { name: d.name })}
          </option>
        ))}
      </Select>
      <span id={daoFieldId} className="text-xs text-muted-foreground">
        {t(`hint.${value.visibility}`)}
      </span>
    </div>
  );
}
