'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { useErrorText } from '../lib/i18n/error-text';
import { useTRPC } from '../lib/trpc';
import { shortAddress } from './ui/address';
import { Button } from './ui/button';
import { ConfirmDialog } from './ui/confirm-dialog';
import { FormError } from './ui/form';

/**
 * "Unlink" on one wallet row, asked first (docs/accounts.md, "Unlinking a wallet"). A refusal closes the
 * dialog and is handed to the list, which shows it with <UnlinkRefusal>.
 */
export function UnlinkWallet({
  address,
  isPrimary,
  onStart,
  onRefused,
}: {
  address: string;
  isPrimary: boolean;
  onStart: () => void;
  onRefused: (error: DisplayError) => void;
}) {
  const t = useTranslations('account.wallets');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const unlink = useMutation(trpc.auth.unlinkWallet.mutationOptions());

  async function confirm() {
    try {
      await unlink.mutateAsync({ address });
      await queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
    } catch (err) {
      onRefused(toDisplayError(err));
    }
  }

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        aria-label={t('unlinkNamed', { address })}
        data-testid="unlink-wallet"
        onClick={() => {
          onStart();
          setOpen(true);
        }}
      >
        {t('unlink')}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        destructive
        title={t('unlinkTitle', { address: shortAddress(address) })}
        description={
          <>
            <p className="m-0">{t('unlinkWhat')}</p>
            {isPrimary && <p className="m-0">{t('unlinkPrimary')}</p>}
          </>
        }
        confirmLabel={t('unlink')}
        onConfirm={confirm}
      />
    </>
  );
}

/**
 * Why an unlink was refused, in words: the DAOs the wallet still runs, each linked so the person can
 * transfer it or give up the role (WALLET_IN_USE), or where to set a password (LAST_SIGN_IN_METHOD).
 */
export function UnlinkRefusal({ error }: { error: DisplayError }) {
  const t = useTranslations('account.wallets');
  const say = useErrorText();
  const daos = (error.issues ?? []).filter((i) => typeof i.params?.daoId === 'string');
  // the DAOs are listed below as links, not again as plain text
  const sentence: DisplayError = daos.length ? { ...error, issues: [], fields: {} } : error;
  return (
    <FormError error={sentence}>
      {daos.length > 0 && (
        <ul className="m-0 list-disc pl-5" data-testid="unlink-in-use">
          {daos.map((issue) => (
            <li key={`${issue.code}-${issue.params?.daoId}`}>
              <Link href={`/daos/${issue.params?.daoId}`}>{say.issue(issue)}</Link>
            </li>
          ))}
        </ul>
      )}
      {error.reason === 'LAST_SIGN_IN_METHOD' && (
        <p className="m-0">
          <Link href="/forgot-password">{t('setPassword')}</Link>
        </p>
      )}
    </FormError>
  );
}
