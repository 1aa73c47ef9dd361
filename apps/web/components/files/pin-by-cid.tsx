'use client';
import { cidInput } from '@plenum/validators';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { useRefreshPins } from '../../lib/files/pins';
import { readable } from '../../lib/files/readable';
import { formValues, validate } from '../../lib/form';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert, Notice } from '../alert';
import { Field } from '../field';

/** Pin content that is already on IPFS: recorded at once, fetched and verified in the background. */
export function PinByCid() {
  const trpc = useTRPC();
  const refreshPins = useRefreshPins();
  const [error, setError] = useState<DisplayError | null>(null);
  const pin = useMutation(
    trpc.storage.pin.mutationOptions({
      onSuccess: () => refreshPins(),
      onError: (err) => setError(readable(err)),
    }),
  );

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    const checked = validate(cidInput, formValues(e.currentTarget));
    if (!checked.ok) return setError(checked.error);
    pin.mutate(checked.data);
  }

  return (
    <section aria-labelledby="pin-heading" className="stack">
      <h2 id="pin-heading">Pin by CID</h2>
      <form className="stack" onSubmit={submit} noValidate>
        <Field
          label="CID"
          name="cid"
          autoComplete="off"
          spellCheck={false}
          placeholder="bafy… or Qm…"
          errors={error?.fields.cid}
        />
        <button type="submit" disabled={pin.isPending}>
          {pin.isPending ? 'Pinning…' : 'Pin'}
        </button>
      </form>
      <ErrorAlert error={error} />
      {pin.data && (
        <Notice testId="pinned-cid">
          {pin.data.created ? 'Pin recorded' : 'You already pin this'}:{' '}
          <code className="address">{pin.data.pin.cid}</code> ({pin.data.pin.status}). The node fetches and
          verifies it in the background.
        </Notice>
      )}
    </section>
  );
}
