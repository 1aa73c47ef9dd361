'use client';
import { OIDC_ERROR_CODES } from '@plenum/validators';
import { useTranslations } from 'next-intl';
import { Alert, AlertDescription } from './ui/alert';

/**
 * What an OpenID sign-in came back with, on the sign-in page: `?oidc=check-email|verify-email`, or
 * `?error=<code>` (docs/accounts.md, "Signing in with OpenID Connect"), in words.
 */
export function OidcNotice({ search }: { search: string }) {
  const t = useTranslations('auth.oidc');
  const params = new URLSearchParams(search);
  const error = params.get('error');
  const oidc = params.get('oidc');
  if (error) {
    const known = (OIDC_ERROR_CODES as readonly string[]).includes(error);
    return (
      <Alert variant="destructive" role="alert" data-testid="oidc-error">
        <AlertDescription>
          <p className="m-0">
            {known ? t(`errors.${error as (typeof OIDC_ERROR_CODES)[number]}`) : t('errors.unknown')}
          </p>
        </AlertDescription>
      </Alert>
    );
  }
  if (oidc === 'check-email' || oidc === 'verify-email')
    return (
      <Alert variant="info" role="status" data-testid="oidc-notice">
        <AlertDescription>
          <p className="m-0">{oidc === 'check-email' ? t('checkEmail') : t('verifyEmail')}</p>
        </AlertDescription>
      </Alert>
    );
  return null;
}
