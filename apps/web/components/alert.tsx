'use client';
import type { ReactNode } from 'react';
import type { DisplayError } from '../lib/errors';
import { useErrorText } from '../lib/i18n/error-text';

/** A form-level failure, read out as soon as it appears, in the page's language (by its codes). */
export function ErrorAlert({ error: raw, children }: { error: DisplayError | null; children?: ReactNode }) {
  const say = useErrorText();
  if (!raw) return null;
  const error = say.error(raw);
  const general = error.fields[''];
  return (
    <div role="alert" className="alert alert-error" data-testid="form-error">
      <p>{error.message}</p>
      {general?.length ? (
        <ul>
          {general.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : null}
      {children}
    </div>
  );
}

export function Notice({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div role="status" className="alert alert-info" data-testid={testId}>
      {children}
    </div>
  );
}
