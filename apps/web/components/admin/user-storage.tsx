'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { UsageMeter } from '../files/usage-bar';
import { Button } from '../ui/button';
import { FormError } from '../ui/form';
import { Input } from '../ui/input';

const MB = 1_000_000;

interface Usage {
  usedBytes: number;
  limitBytes: number | null;
  pins: number;
  pendingPins: number;
}

/**
 * A user's storage for an admin (docs/storage.md, "Quotas"): what they use against their quota, and a
 * quota of their own in MB (0 = unlimited), or back to the server's default.
 */
export function UserStorage({ userId, usage }: { userId: string; usage: Usage }) {
  const t = useTranslations('admin.users.detail.storage');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const fieldId = useId();
  const [mb, setMb] = useState(usage.limitBytes === null ? '0' : String(usage.limitBytes / MB));
  const set = useMutation(
    trpc.adminUsers.setStorageQuota.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.adminUsers.pathKey() }),
    }),
  );
  const value = Number(mb);
  const valid = mb.trim() !== '' && Number.isFinite(value) && value >= 0;
  return (
    <section className="grid gap-2" data-testid="user-storage">
      <h3 className="m-0 text-base font-semibold">{t('title')}</h3>
      <UsageMeter usage={usage} />
      <form
        className="flex flex-wrap items-end gap-2"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) set.mutate({ id: userId, limitBytes: Math.round(value * MB) });
        }}
      >
        <div className="grid gap-1">
          <label htmlFor={fieldId} className="text-sm font-medium">
            {t('quota')}
          </label>
          <Input
            id={fieldId}
            type="number"
            min={0}
            step="any"
            inputMode="decimal"
            className="h-9 w-40"
            value={mb}
            aria-invalid={!valid}
            onChange={(e) => setMb(e.target.value)}
          />
        </div>
        <Button type="submit" size="sm" disabled={!valid || set.isPending}>
          {t('save')}
        </Button>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={set.isPending}
          onClick={() => set.mutate({ id: userId, limitBytes: null })}
        >
          {t('useDefault')}
        </Button>
      </form>
      {set.isSuccess && (
        <p className="m-0 text-sm text-muted-foreground" role="status" data-testid="quota-saved">
          {t('saved')}
        </p>
      )}
      {set.error && <FormError error={readable(set.error)} />}
    </section>
  );
}
