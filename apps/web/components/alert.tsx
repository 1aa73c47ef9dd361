import type { ReactNode } from 'react';
import type { DisplayError } from '../lib/errors';

/** A form-level failure, read out as soon as it appears. */
export function ErrorAlert({ error, children }: { error: DisplayError | null; children?: ReactNode }) {
  if (!error) return null;
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
