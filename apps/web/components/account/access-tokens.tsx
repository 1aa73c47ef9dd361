'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useApiUrl } from '../../lib/api-url';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { Alert, AlertDescription } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DateTime } from '../ui/date-time';
import { EmptyState } from '../ui/empty-state';
import { QueryState } from '../ui/query-state';
import { CreateTokenForm } from './create-token-form';
import { CreatedToken } from './created-token';

/** Personal access tokens for programs such as Kubo's remote pinning: create, list, revoke (after asking). */
export function AccessTokens() {
  const t = useTranslations('account.tokens');
  const trpc = useTRPC();
  const apiUrl = useApiUrl();
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const list = useQuery(trpc.tokens.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
  const create = useMutation(trpc.tokens.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSuccess: refresh }));
  const failure = create.error ? readable(create.error) : null;

  return (
    <section aria-labelledby="tokens-heading" className="grid min-w-0 gap-4">
      <h2 id="tokens-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <p className="m-0 text-muted-foreground">
        {t('intro')} <code className="break-all">ipfs pin remote service add plenum {apiUrl} YOUR_TOKEN</code>
      </p>
      <CreateTokenForm create={create.mutateAsync} pending={create.isPending} />
      {failure && (
        <Alert variant="destructive" role="alert" data-testid="form-error">
          <AlertDescription>{failure.message}</AlertDescription>
        </Alert>
      )}
      {create.data && <CreatedToken token={create.data.token} name={create.data.name} />}
      <QueryState query={list}>
        {(data) =>
          data.items.length === 0 ? (
            <EmptyState icon={KeyRound} title={t('empty')} testId="no-tokens" />
          ) : (
            <ul className="m-0 grid list-none gap-2 p-0" data-testid="tokens">
              {data.items.map((tok) => (
                <li
                  key={tok.id}
                  data-testid="token"
                  data-name={tok.name}
                  className="flex min-w-0 flex-wrap items-center justify-between gap-2 rounded-lg border bg-card p-3"
                >
                  <div className="grid min-w-0 gap-0.5">
                    <span className="min-w-0 break-words">
                      <strong>{tok.name}</strong> <code className="text-xs">{tok.prefix}…</code>
                    </span>
                    <span className="flex flex-wrap gap-1" data-testid="token-scopes">
                      {tok.scopes.map((scope) => (
                        <Badge key={scope} variant="secondary" data-scope={scope}>
                          {t(`scopeNames.${scope}`)}
                        </Badge>
                      ))}
                    </span>
                    <span className="text-sm text-muted-foreground">
                      {t('created')} <DateTime value={tok.createdAt} />
                      {' · '}
                      {tok.expiresAt ? (
                        <>
                          {t('expiresOn')} <DateTime value={tok.expiresAt} />
                        </>
                      ) : (
                        t('never')
                      )}
                    </span>
                  </div>
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={t('revokeNamed', { name: tok.name })}
                    onClick={() => setRevoking({ id: tok.id, name: tok.name })}
                  >
                    {t('revoke')}
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open) setRevoking(null);
        }}
        destructive
        title={t('revokeTitle', { name: revoking?.name ?? '' })}
        description={t('revokeWhat')}
        confirmLabel={t('revoke')}
        onConfirm={() => (revoking ? revoke.mutateAsync({ id: revoking.id }) : undefined)}
      />
    </section>
  );
}
