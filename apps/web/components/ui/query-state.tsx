'use client';
import { Loader2, RefreshCw, TriangleAlert } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { type ReactNode, useRef } from 'react';
import { cn } from '../../lib/cn';
import { toDisplayError } from '../../lib/errors';
import { useErrorText } from '../../lib/i18n/error-text';
import { isTransient } from '../../lib/query-client';
import { Alert, AlertDescription, AlertTitle } from './alert';
import { Button } from './button';
import { Skeleton } from './skeleton';

/**
 * A failed query in words, with an inline "Try again". When the failure is transient (the server could
 * not be reached, 5xx) it says that it keeps trying by itself, which the QueryClient does (lib/query-client.ts).
 */
export function ErrorRetry({
  error,
  onRetry,
  retrying = false,
  title,
  className,
  testId = 'query-error',
}: {
  error: unknown;
  onRetry: () => unknown;
  retrying?: boolean;
  title?: ReactNode;
  className?: string;
  testId?: string;
}) {
  const t = useTranslations('common.query');
  const say = useErrorText();
  const transient = isTransient(error);
  // in the page's language by the error's reason (lib/i18n/error-text.ts)
  const message = say.error(toDisplayError(error)).message;
  return (
    <Alert variant="destructive" role="alert" data-testid={testId} className={className}>
      <TriangleAlert aria-hidden />
      <AlertTitle>{title ?? (transient ? t('unreachableTitle') : t('failedTitle'))}</AlertTitle>
      <AlertDescription>
        <p>{transient ? t('unreachable') : message}</p>
        {transient && <p className="text-muted-foreground">{t('autoRetry')}</p>}
        <div className="mt-1 flex flex-wrap items-center gap-3">
          {/* stays clickable while the app retries by itself: a click starts a fresh attempt at once */}
          <Button variant="outline" size="sm" onClick={() => onRetry()} aria-busy={retrying || undefined}>
            {retrying ? <Loader2 className="animate-spin" aria-hidden /> : <RefreshCw aria-hidden />}
            {t('tryAgain')}
          </Button>
          {retrying && <span className="text-muted-foreground">{t('retrying')}</span>}
        </div>
      </AlertDescription>
    </Alert>
  );
}

/** A loading placeholder that screen readers announce. */
export function Loading({
  label,
  className,
  lines = 3,
}: {
  label?: ReactNode;
  className?: string;
  lines?: number;
}) {
  const t = useTranslations('common.query');
  return (
    <div role="status" aria-live="polite" className={cn('grid gap-2', className)} data-testid="query-loading">
      <span className="sr-only">{label ?? t('loading')}</span>
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} className={cn('h-5', i === lines - 1 ? 'w-2/3' : 'w-full')} />
      ))}
    </div>
  );
}

/**
 * The three states of a query in one place: loading (skeleton), error (in words, with "Try again"), data.
 * When a refetch fails while data is shown, the data stays and the error appears above it.
 *
 *   <QueryState query={daos}>{(list) => <DaoList daos={list} />}</QueryState>
 */
export function QueryState<T>({
  query,
  children,
  loading,
  errorTitle,
}: {
  /** a useQuery result (any error type: tRPC's or a plain Error) */
  query: {
    data: T | undefined;
    error: unknown;
    isError: boolean;
    isFetching: boolean;
    refetch: () => unknown;
    failureCount?: number;
    failureReason?: unknown;
  };
  children: (data: T) => ReactNode;
  loading?: ReactNode;
  errorTitle?: ReactNode;
}) {
  // while it retries, a query without data is "pending" again: keep saying what went wrong (from the
  // second failed attempt, or the last error) instead of flickering back to the loading state
  const lastError = useRef<unknown>(null);
  if (query.isError) lastError.current = query.error;
  if (query.data !== undefined) lastError.current = null;
  const failure = query.isError
    ? query.error
    : (query.failureCount ?? 0) >= 2
      ? query.failureReason
      : lastError.current;
  const error = failure ? (
    <ErrorRetry
      error={failure}
      title={errorTitle}
      retrying={query.isFetching}
      onRetry={() => void query.refetch()}
    />
  ) : null;
  if (query.data !== undefined)
    return (
      <>
        {error}
        {children(query.data)}
      </>
    );
  if (error) return error;
  return <>{loading ?? <Loading />}</>;
}
