'use client';
import { totpConfirmInput } from '@plenum/validators';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { type DisplayError, toDisplayError } from '../../lib/errors';
import { useTRPC } from '../../lib/trpc';
import { Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { useFormatDateTime } from '../ui/date-time';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../ui/dialog';
import { Form, FormError, setServerErrors, TextField, useZodForm } from '../ui/form';
import { QueryState } from '../ui/query-state';

type Enrolment = { secret: string; otpauthUrl: string };

/**
 * "Two-factor sign-in" on the Security tab (docs/accounts.md, "Two-factor sign-in"): set up an
 * authenticator app from a QR code, confirm it with a code, keep the recovery codes shown once; when on,
 * turn it off or renew the codes with a code from the app or a recovery code.
 */
export function TwoFactor() {
  const t = useTranslations('account.twoFactor');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.auth.mfaStatus.queryOptions());
  const formatDate = useFormatDateTime();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [prove, setProve] = useState<'off' | 'codes' | null>(null);
  const [error, setError] = useState<DisplayError | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.auth.mfaStatus.queryKey() });
  const start = useMutation(trpc.auth.totpStart.mutationOptions());

  const begin = () => {
    setError(null);
    setNotice(null);
    start.mutate(undefined, { onSuccess: setEnrolment, onError: (err) => setError(toDisplayError(err)) });
  };

  return (
    <section aria-labelledby="two-factor-heading" className="grid gap-4" data-testid="two-factor">
      <h2 id="two-factor-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <p className="m-0 max-w-2xl text-sm text-muted-foreground">{t('lead')}</p>
      {notice && <Notice testId="two-factor-notice">{notice}</Notice>}
      <FormError error={error} />
      <QueryState query={status}>
        {(s) =>
          codes ? (
            <RecoveryCodes
              codes={codes}
              onDone={() => {
                setCodes(null);
                void refresh();
              }}
            />
          ) : enrolment ? (
            <Enrol
              enrolment={enrolment}
              onCancel={() => setEnrolment(null)}
              onConfirmed={(recovery) => {
                setEnrolment(null);
                setCodes(recovery);
                setNotice(t('otherSessionsEnded'));
                void queryClient.invalidateQueries({ queryKey: trpc.auth.sessions.queryKey() });
                void refresh();
              }}
            />
          ) : s.totp.enabled ? (
            <div className="grid gap-3">
              <p className="m-0" data-testid="two-factor-on">
                {t('on', { date: formatDate(s.totp.confirmedAt ?? ''), count: s.recoveryCodesLeft })}
              </p>
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" onClick={() => setProve('codes')}>
                  {t('newCodes')}
                </Button>
                <Button variant="destructive" onClick={() => setProve('off')}>
                  {t('turnOff')}
                </Button>
              </div>
            </div>
          ) : (
            <div className="grid gap-3">
              <p className="m-0" data-testid="two-factor-off">
                {t('off')}
              </p>
              <Button className="justify-self-start" onClick={begin} disabled={start.isPending}>
                {start.isPending ? t('starting') : t('setUp')}
              </Button>
            </div>
          )
        }
      </QueryState>
      <ProveDialog
        what={prove}
        onClose={() => setProve(null)}
        onDone={(result) => {
          setProve(null);
          if (result) setCodes(result);
          else setNotice(t('turnedOff'));
          void refresh();
        }}
      />
    </section>
  );
}

function Enrol({
  enrolment,
  onCancel,
  onConfirmed,
}: {
  enrolment: Enrolment;
  onCancel: () => void;
  onConfirmed: (codes: string[]) => void;
}) {
  const t = useTranslations('account.twoFactor');
  const ta = useTranslations('auth');
  const trpc = useTRPC();
  const [qr, setQr] = useState<string | null>(null);
  const [error, setError] = useState<DisplayError | null>(null);
  const confirm = useMutation(trpc.auth.totpConfirm.mutationOptions());
  const form = useZodForm(totpConfirmInput, { defaultValues: { code: '' } });
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(enrolment.otpauthUrl, { margin: 1, width: 200 }).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [enrolment.otpauthUrl]);

  const onSubmit = form.handleSubmit(
    (values) => {
      setError(null);
      confirm.mutate(values, {
        onSuccess: (r) => onConfirmed(r.recoveryCodes),
        onError: (err) => {
          const shown = toDisplayError(err);
          setServerErrors(form, shown);
          setError(shown);
        },
      });
    },
    () => setError({ message: ta('fixFields'), fields: {} }),
  );

  return (
    <div className="grid max-w-md gap-4" data-testid="totp-enrolment">
      <p className="m-0 text-sm">{t('scan')}</p>
      {qr ? (
        <img src={qr} alt={t('qrAlt')} width={200} height={200} className="rounded-md border bg-white" />
      ) : (
        <div className="size-[200px] rounded-md border bg-muted" aria-hidden />
      )}
      <p className="m-0 text-sm">
        {t('key')}:{' '}
        <code className="break-all font-mono" data-testid="totp-secret">
          {enrolment.secret}
        </code>
      </p>
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <FormError error={error} />
          <TextField
            form={form}
            name="code"
            label={t('confirmLabel')}
            autoComplete="one-time-code"
            inputMode="numeric"
            required
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={confirm.isPending}>
              {confirm.isPending ? t('confirming') : t('confirm')}
            </Button>
            <Button type="button" variant="ghost" onClick={onCancel}>
              {t('cancel')}
            </Button>
          </div>
        </form>
      </Form>
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = useTranslations('account.twoFactor');
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;
  return (
    <div className="grid max-w-md gap-3" data-testid="recovery-codes">
      <h3 className="m-0 text-base font-semibold">{t('codesTitle')}</h3>
      <p className="m-0 text-sm text-muted-foreground">{t('codesLead')}</p>
      <ol className="m-0 grid list-none grid-cols-2 gap-x-6 gap-y-1 rounded-md border p-3 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true))}
        >
          {copied ? t('copied') : t('copy')}
        </Button>
        <Button variant="outline" asChild>
          <a
            href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
            download="plenum-recovery-codes.txt"
          >
            {t('download')}
          </a>
        </Button>
        <Button onClick={onDone}>{t('saved')}</Button>
      </div>
    </div>
  );
}

const proveSchema = z.object({ code: z.string().trim().min(1).max(64) });

/** proves the factor again (a code from the app or a recovery code) to turn it off or renew the codes */
function ProveDialog({
  what,
  onClose,
  onDone,
}: {
  what: 'off' | 'codes' | null;
  onClose: () => void;
  onDone: (codes: string[] | null) => void;
}) {
  const t = useTranslations('account.twoFactor');
  const trpc = useTRPC();
  const [error, setError] = useState<DisplayError | null>(null);
  const off = useMutation(trpc.auth.totpDisable.mutationOptions());
  const renew = useMutation(trpc.auth.recoveryCodes.mutationOptions());
  const form = useZodForm(proveSchema, { defaultValues: { code: '' } });
  const pending = off.isPending || renew.isPending;

  const fail = (err: unknown) => {
    const shown = toDisplayError(err);
    setServerErrors(form, shown);
    setError(shown);
  };
  const onSubmit = form.handleSubmit((values) => {
    setError(null);
    const done = (codes: string[] | null) => {
      form.reset();
      onDone(codes);
    };
    if (what === 'off') off.mutate(values, { onSuccess: () => done(null), onError: fail });
    else renew.mutate(values, { onSuccess: (r) => done(r.recoveryCodes), onError: fail });
  });

  return (
    <Dialog
      open={what !== null}
      onOpenChange={(open) => {
        if (!open) {
          setError(null);
          form.reset();
          onClose();
        }
      }}
    >
      <DialogContent data-testid="two-factor-prove">
        <DialogHeader>
          <DialogTitle>{what === 'off' ? t('proveTitleOff') : t('proveTitleCodes')}</DialogTitle>
          <DialogDescription>{t('proveLead')}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={onSubmit} noValidate className="grid gap-4">
            <FormError error={error} />
            <TextField
              form={form}
              name="code"
              label={t('proveLabel')}
              autoComplete="one-time-code"
              required
            />
            <Button
              type="submit"
              variant={what === 'off' ? 'destructive' : 'default'}
              disabled={pending}
              className="justify-self-start"
            >
              {pending ? t('working') : what === 'off' ? t('proveSubmitOff') : t('proveSubmitCodes')}
            </Button>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
