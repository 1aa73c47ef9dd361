'use client';
import { cidInput } from '@plenum/validators';
import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useRefreshPins } from '../../lib/files/pins';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { Alert, AlertDescription } from '../ui/alert';
import { Button } from '../ui/button';
import { Form, setServerErrors, TextField, useZodForm } from '../ui/form';

/** Pin content that is already on IPFS: recorded at once, fetched and verified in the background. */
export function PinByCid() {
  const t = useTranslations('files.pinByCid');
  const trpc = useTRPC();
  const refreshPins = useRefreshPins();
  const form = useZodForm(cidInput, { defaultValues: { cid: '' } });
  const pin = useMutation(trpc.storage.pin.mutationOptions({ onSuccess: () => refreshPins() }));
  const failure = pin.error ? readable(pin.error) : null;

  return (
    <section aria-labelledby="pin-heading" className="grid min-w-0 gap-3">
      <h2 id="pin-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <Form {...form}>
        <form
          className="grid max-w-xl gap-3"
          noValidate
          onSubmit={form.handleSubmit((values) =>
            pin.mutate(values, { onError: (err) => setServerErrors(form, readable(err)) }),
          )}
        >
          <TextField
            form={form}
            name="cid"
            label={t('label')}
            autoComplete="off"
            spellCheck={false}
            placeholder="bafy… / Qm…"
          />
          <Button type="submit" className="justify-self-start" disabled={pin.isPending}>
            {pin.isPending ? t('pinning') : t('pin')}
          </Button>
        </form>
      </Form>
      {failure && (
        <Alert variant="destructive" role="alert" data-testid="form-error">
          <AlertDescription>{failure.message}</AlertDescription>
        </Alert>
      )}
      {pin.data && (
        <Alert variant="success" role="status" data-testid="pinned-cid">
          <AlertDescription>
            <p>
              {pin.data.created ? t('recorded') : t('already')}{' '}
              <code className="break-all">{pin.data.pin.cid}</code>
            </p>
            <p>{t('background')}</p>
          </AlertDescription>
        </Alert>
      )}
    </section>
  );
}
