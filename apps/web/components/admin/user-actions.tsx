'use client';
import { suspendUserInput } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { Alert, AlertDescription } from '../ui/alert';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { useZodForm } from '../ui/form';
import { Textarea } from '../ui/textarea';

const reasonSchema = suspendUserInput.pick({ reason: true });

interface Row {
  id: string;
  email: string;
  status: 'pending_verification' | 'active' | 'suspended';
}

/**
 * Suspend (a reason is required and goes to the audit log; a confirmation says what happens) or
 * reactivate one user. Admins cannot suspend themselves.
 */
export function UserActions({
  user,
  self,
  onStatus,
}: {
  user: Row;
  self: boolean;
  /** the user's status after an action (a filtered list may no longer show them) */
  onStatus?: (status: Row['status']) => void;
}) {
  const t = useTranslations('admin.users.actions');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const reasonId = useId();
  const [asking, setAsking] = useState(false);
  const [confirmReason, setConfirmReason] = useState<string | null>(null);
  const form = useZodForm(reasonSchema, { defaultValues: { reason: '' } });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.adminUsers.pathKey() }),
      queryClient.invalidateQueries({ queryKey: ['admin'] }),
    ]);
  const suspend = useMutation(
    trpc.adminUsers.suspend.mutationOptions({
      onSuccess: (r) => {
        onStatus?.(r.status);
        return refresh();
      },
    }),
  );
  const reactivate = useMutation(
    trpc.adminUsers.reactivate.mutationOptions({
      onSuccess: (r) => {
        onStatus?.(r.status);
        return refresh();
      },
    }),
  );

  if (self) return <p className="m-0 text-sm text-muted-foreground">{t('self')}</p>;
  if (user.status === 'suspended')
    return (
      <div className="grid gap-2">
        <Button
          variant="outline"
          className="justify-self-start"
          disabled={reactivate.isPending}
          onClick={() => reactivate.mutate({ id: user.id })}
        >
          {t('reactivate')}
        </Button>
        {reactivate.isError && (
          <Alert variant="destructive" role="alert">
            <AlertDescription>{readable(reactivate.error).message}</AlertDescription>
          </Alert>
        )}
      </div>
    );
  if (!asking)
    return (
      <Button variant="outline" className="justify-self-start" onClick={() => setAsking(true)}>
        {t('suspendStart')}
      </Button>
    );
  const reasonError = form.formState.errors.reason;
  return (
    <>
      <form
        className="grid gap-2"
        noValidate
        onSubmit={form.handleSubmit(({ reason }) => setConfirmReason(reason))}
      >
        <label htmlFor={reasonId} className="text-sm font-medium">
          {t('reason')}
        </label>
        <Textarea
          id={reasonId}
          maxLength={1000}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={`${reasonId}-hint${reasonError ? ` ${reasonId}-error` : ''}`}
          {...form.register('reason')}
        />
        <p id={`${reasonId}-hint`} className="m-0 text-sm text-muted-foreground">
          {t('reasonHint')}
        </p>
        {reasonError && (
          <p id={`${reasonId}-error`} className="m-0 text-sm text-destructive" data-field-errors="reason">
            {t('reasonRequired')}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="destructive">
            {t('suspend')}
          </Button>
          <Button type="button" variant="outline" onClick={() => setAsking(false)}>
            {t('cancel')}
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirmReason !== null}
        onOpenChange={(open) => {
          if (!open) setConfirmReason(null);
        }}
        destructive
        title={t('confirmTitle', { email: user.email })}
        description={
          <>
            <p className="m-0">{t('confirmWhat')}</p>
            <p className="m-0">{t('confirmReason', { reason: confirmReason ?? '' })}</p>
          </>
        }
        confirmLabel={t('suspend')}
        onConfirm={async () => {
          await suspend.mutateAsync({ id: user.id, reason: confirmReason ?? '' });
          setAsking(false);
          form.reset();
        }}
      />
    </>
  );
}
