import { accessTokens, type DbOrTx } from '@plenum/db';
import { DEFAULT_TOKEN_SCOPES, TOKEN_SCOPES, type TokenScope } from '@plenum/validators';
import { and, count, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Services } from '../services';
import { badRequest, conflict, forbidden, notFound } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { fetchPage, type Page } from '../shared/pagination';
import { hashToken, newToken } from '../shared/tokens';
import { recordAccountEvent } from './activity';
import { PAT_PREFIX, type Principal, type SessionClient } from './sessions';

const MAX_ACTIVE_TOKENS = 50;
/** a token nobody set an end for expires after this (docs/accounts.md, "Personal access tokens") */
export const DEFAULT_TOKEN_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000;

const view = (t: typeof accessTokens.$inferSelect) => ({
  id: t.id,
  name: t.name,
  prefix: t.prefix,
  scopes: t.scopes,
  expiresAt: t.expiresAt?.toISOString() ?? null,
  lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
  createdAt: t.createdAt.toISOString(),
});

/**
 * Personal access tokens for programs (Kubo remote pinning, scripts): `plm_` + 32 random bytes,
 * shown once and stored as a hash. Only a signed-in session creates them, so a leaked token cannot
 * mint more tokens. Without an end date a token expires after 90 days; one that never expires must be
 * asked for by name (`expiresAt: "never"`). Without scopes it may read, govern and store, not change the
 * account (docs/accounts.md, "Token scopes"); they are stored in the order of TOKEN_SCOPES.
 */
export async function createAccessToken(
  svc: Services,
  params: {
    principal: Principal;
    name: string;
    expiresAt?: string | undefined;
    scopes?: readonly TokenScope[] | undefined;
    client?: SessionClient | undefined;
  },
) {
  const { principal } = params;
  if (principal.kind !== 'session')
    throw forbidden('Create access tokens from a signed-in session, not with a token', 'SESSION_REQUIRED');
  const now = svc.clock.now();
  const expiresAt =
    params.expiresAt === 'never'
      ? null
      : params.expiresAt
        ? new Date(params.expiresAt)
        : new Date(now.getTime() + DEFAULT_TOKEN_LIFETIME_MS);
  if (expiresAt && expiresAt.getTime() <= now.getTime())
    throw badRequest('expiresAt must be in the future', [
      { path: 'expiresAt', message: 'must be in the future' },
    ]);
  const [active] = await svc.db
    .select({ n: sql<number>`count(*)::int` })
    .from(accessTokens)
    .where(and(eq(accessTokens.userId, principal.userId), isNull(accessTokens.revokedAt)));
  if (Number(active?.n ?? 0) >= MAX_ACTIVE_TOKENS)
    throw conflict(`At most ${MAX_ACTIVE_TOKENS} active tokens; revoke one first`, 'TOO_MANY_TOKENS');
  const asked = params.scopes ?? DEFAULT_TOKEN_SCOPES;
  const scopes = TOKEN_SCOPES.filter((s) => asked.includes(s));
  const token = newToken(PAT_PREFIX);
  const row = await svc.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(accessTokens)
      .values({
        userId: principal.userId,
        name: params.name,
        tokenHash: hashToken(token),
        prefix: token.slice(0, 10),
        scopes,
        expiresAt,
        createdAt: now,
      })
      .returning();
    await recordAccountEvent(tx, {
      userId: principal.userId,
      kind: 'token_created',
      detail: { tokenId: created!.id, name: params.name, scopes },
      ...params.client,
      at: now,
    });
    return created!;
  });
  return { ...view(row), token };
}

/** The user's live (unrevoked) tokens, newest first, a page at a time. */
export async function listAccessTokens(svc: Pick<Services, 'db'>, params: Page & { userId: string }) {
  const { db } = svc;
  const where = and(eq(accessTokens.userId, params.userId), isNull(accessTokens.revokedAt));
  const { rows, pagination } = await fetchPage(
    params,
    db
      .select()
      .from(accessTokens)
      .where(where)
      .orderBy(desc(accessTokens.createdAt), desc(accessTokens.id))
      .$dynamic(),
    db.select({ n: count() }).from(accessTokens).where(where),
  );
  return { items: rows.map(view), pagination };
}

/** Revocation is immediate: resolveToken checks revokedAt on every request. */
export async function revokeAccessToken(
  svc: Services,
  params: { userId: string; id: string; client?: SessionClient | undefined },
) {
  const { userId, id } = params;
  if (!isUuid(id)) throw notFound('No such access token');
  const now = svc.clock.now();
  await svc.db.transaction(async (tx) => {
    const [row] = await tx
      .update(accessTokens)
      .set({ revokedAt: now })
      .where(and(eq(accessTokens.id, id), eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt)))
      .returning({ id: accessTokens.id, name: accessTokens.name });
    if (!row) throw notFound('No such access token');
    await recordAccountEvent(tx, {
      userId,
      kind: 'token_revoked',
      detail: { tokenId: row.id, name: row.name },
      ...params.client,
      at: now,
    });
  });
}

/**
 * Revokes the user's tokens made at or after `since`: undoing an email change takes back what whoever
 * changed it may have made (docs/accounts.md, "Changing the email address"); older tokens are the owner's.
 */
export async function revokeTokensMadeSince(tx: DbOrTx, params: { userId: string; since: Date; at: Date }) {
  await tx
    .update(accessTokens)
    .set({ revokedAt: params.at })
    .where(
      and(
        eq(accessTokens.userId, params.userId),
        gte(accessTokens.createdAt, params.since),
        isNull(accessTokens.revokedAt),
      ),
    );
}
