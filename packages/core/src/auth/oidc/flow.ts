import { oidcStates } from '@plenum/db';
import { and, eq, gt, lt } from 'drizzle-orm';
import type * as OpenId from 'openid-client';
import type { Services } from '../../services';
import { AppError, badRequest } from '../../shared/errors';
import { open, seal } from '../../shared/secret-box';
import { hashToken, newToken } from '../../shared/tokens';
import { type ProvenIdentity, resolveIdentity } from '../identities';
import { finishFirstFactor, type MfaChallenge } from '../second-factor';
import type { SessionClient } from '../sessions';
import { openidClient } from './providers';

/**
 * The browser side of OpenID Connect sign-in (docs/accounts.md, "Signing in with OpenID Connect"):
 * `startOidc` writes the flow's state and answers the provider's authorization URL (PKCE S256, state,
 * nonce); `finishOidc` spends that state for the callback, lets openid-client check the answer (state,
 * nonce, PKCE, the ID token's signature) and hands the proven identity to auth/identities.ts.
 */

/** how long a started sign-in waits for the provider's callback */
export const OIDC_STATE_TTL_MS = 10 * 60_000;
const SEAL_PURPOSE = 'oidc state';
const HERE = 'http://plenum.invalid';

/** the callback URL registered at the provider: on the API's public URL (API_URL) */
export const oidcCallbackUrl = (svc: Services, provider: string) =>
  `${svc.config.storage.publicUrl.replace(/\/+$/, '')}/auth/oidc/${encodeURIComponent(provider)}/callback`;

/**
 * A path of the web app to return to: it must start with one `/` and stay on the app once the browser
 * reads it (no `//host`, `/\host`, scheme). Anything else is a 400: no open redirect.
 */
export function safeReturnTo(value: string | null | undefined, fallback = '/'): string {
  if (value === null || value === undefined || value === '') return fallback;
  let url: URL | null = null;
  try {
    url =
      value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')
        ? new URL(value, HERE)
        : null;
  } catch {
    url = null;
  }
  if (!url || url.origin !== HERE || [...value].some((c) => c.charCodeAt(0) < 0x20))
    throw badRequest('returnTo must be a path of this app', [
      { path: 'returnTo', message: 'must be a relative path such as /dashboard', code: 'invalid_format' },
    ]);
  return `${url.pathname}${url.search}${url.hash}`;
}

export async function startOidc(
  svc: Services,
  params: { provider: string; returnTo?: string | null; linkUserId?: string | null },
) {
  const provider = svc.oidc.provider(params.provider).id;
  const returnTo = safeReturnTo(params.returnTo, params.linkUserId ? '/account' : '/');
  const config = await svc.oidc.configuration(provider);
  const client = await openidClient();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const browserToken = newToken();
  const now = svc.clock.now();
  await svc.db.transaction(async (tx) => {
    // states the callback never came for go with the next start
    await tx.delete(oidcStates).where(lt(oidcStates.expiresAt, now));
    await tx.insert(oidcStates).values({
      stateHash: hashToken(state),
      browserHash: hashToken(browserToken),
      provider,
      secrets: seal(svc.config.secretKey(), SEAL_PURPOSE, JSON.stringify({ codeVerifier, nonce })),
      returnTo,
      linkUserId: params.linkUserId ?? null,
      expiresAt: new Date(now.getTime() + OIDC_STATE_TTL_MS),
      createdAt: now,
    });
  });
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: oidcCallbackUrl(svc, provider),
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { url: url.href, browserToken, expiresInMs: OIDC_STATE_TTL_MS };
}

export type OidcErrorCode =
  | 'OIDC_STATE_INVALID'
  | 'OIDC_PROVIDER_ERROR'
  | 'OIDC_EXCHANGE_FAILED'
  | 'OIDC_PROVIDER_UNAVAILABLE'
  | 'OIDC_EMAIL_MISSING'
  | 'OIDC_IDENTITY_TAKEN'
  | 'ACCOUNT_SUSPENDED'
  | 'ACCOUNT_DELETED';

export type OidcOutcome =
  | { kind: 'session'; session: { token: string; expiresAt: string }; returnTo: string }
  | { kind: 'mfa'; challenge: MfaChallenge; returnTo: string }
  | { kind: 'pending'; returnTo: string }
  | { kind: 'linked'; returnTo: string }
  | { kind: 'checkEmail' }
  | { kind: 'error'; code: OidcErrorCode; linking: boolean };

const failed = (code: OidcErrorCode, linking = false): OidcOutcome => ({ kind: 'error', code, linking });

/**
 * The callback: every failure is an outcome with a code for the sign-in page (never a 500), and nothing
 * is written before the provider's answer is checked, except that the state is spent.
 */
export async function finishOidc(
  svc: Services,
  params: { provider: string; callbackUrl: URL; browserToken: string | null; client?: SessionClient },
): Promise<OidcOutcome> {
  const provider = svc.oidc.provider(params.provider).id;
  const q = params.callbackUrl.searchParams;
  const state = q.get('state');
  if (q.get('error')) return failed('OIDC_PROVIDER_ERROR');
  if (!state || !params.browserToken) return failed('OIDC_STATE_INVALID');
  const now = svc.clock.now();
  // spent here: of the same callback sent many times at once, one gets the row
  const [row] = await svc.db
    .delete(oidcStates)
    .where(
      and(
        eq(oidcStates.stateHash, hashToken(state)),
        eq(oidcStates.browserHash, hashToken(params.browserToken)),
        eq(oidcStates.provider, provider),
        gt(oidcStates.expiresAt, now),
      ),
    )
    .returning();
  if (!row) return failed('OIDC_STATE_INVALID');
  const linking = row.linkUserId !== null;
  const { codeVerifier, nonce } = JSON.parse(open(svc.config.secretKey(), SEAL_PURPOSE, row.secrets)) as {
    codeVerifier: string;
    nonce: string;
  };

  let config: OpenId.Configuration;
  try {
    config = await svc.oidc.configuration(provider);
  } catch {
    return failed('OIDC_PROVIDER_UNAVAILABLE', linking);
  }
  // openid-client reads the answer's own parameters; the redirect_uri it sends is the registered one
  const current = new URL(oidcCallbackUrl(svc, provider));
  current.search = params.callbackUrl.search;
  const client = await openidClient();
  let identity: ProvenIdentity;
  try {
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: codeVerifier,
      expectedNonce: nonce,
      expectedState: state,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) return failed('OIDC_EXCHANGE_FAILED', linking);
    let info: Record<string, unknown> = claims;
    if (typeof claims.email !== 'string' && tokens.access_token)
      info = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    identity = {
      provider,
      subject: claims.sub,
      email: typeof info.email === 'string' ? info.email : null,
      emailVerified: info.email_verified === true,
      givenName: typeof info.given_name === 'string' ? info.given_name : undefined,
      familyName: typeof info.family_name === 'string' ? info.family_name : undefined,
      name: typeof info.name === 'string' ? info.name : undefined,
    };
  } catch (err) {
    svc.log.warn({ provider, err: errorName(err) }, 'OpenID token exchange failed');
    return failed(unreachable(err) ? 'OIDC_PROVIDER_UNAVAILABLE' : 'OIDC_EXCHANGE_FAILED', linking);
  }

  let resolved: Awaited<ReturnType<typeof resolveIdentity>>;
  try {
    resolved = await resolveIdentity(svc, identity, row.linkUserId);
  } catch (err) {
    const reason = err instanceof AppError ? err.options.reason : undefined;
    if (reason === 'OIDC_IDENTITY_TAKEN' || reason === 'OIDC_EMAIL_MISSING' || reason === 'ACCOUNT_DELETED')
      return failed(reason, linking);
    throw err;
  }
  const returnTo = row.returnTo;
  switch (resolved.kind) {
    case 'linked':
      return { kind: 'linked', returnTo };
    case 'confirmationSent':
      return { kind: 'checkEmail' };
    case 'created':
      if (!resolved.active) return { kind: 'pending', returnTo };
      return { kind: 'session', session: await finishAs(svc, resolved.user, params.client), returnTo };
    case 'signIn': {
      const user = resolved.user;
      if (user.deletedAt) return failed('ACCOUNT_DELETED');
      if (user.status === 'suspended') return failed('ACCOUNT_SUSPENDED');
      const answer = await finishFirstFactor(svc, user, 'oidc', params.client);
      if ('mfaRequired' in answer) return { kind: 'mfa', challenge: answer, returnTo };
      return { kind: 'session', session: answer, returnTo };
    }
  }
}

async function finishAs(svc: Services, user: Parameters<typeof finishFirstFactor>[1], c?: SessionClient) {
  const answer = await finishFirstFactor(svc, user, 'oidc', c);
  if ('mfaRequired' in answer)
    throw new AppError('INTERNAL_SERVER_ERROR', 'a new account has no second factor');
  return answer;
}

/**
 * The provider did not answer in time or at all (openid-client's OAUTH_TIMEOUT, a refused or reset
 * connection somewhere in the causes), as against an answer that refused the code or failed a check.
 */
function unreachable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = String((e as { code?: unknown }).code ?? '');
    if (
      ['OAUTH_TIMEOUT', 'OAUTH_ABORT', 'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT'].includes(code)
    )
      return true;
    if (code.startsWith('UND_ERR_') || e.name === 'TimeoutError' || e.message === 'fetch failed') return true;
  }
  return false;
}

/** a log line names the error's kind, never the provider's answer (it may hold tokens) */
const errorName = (err: unknown) =>
  err instanceof Error ? `${err.name}: ${(err as { code?: string }).code ?? ''}` : 'unknown';
