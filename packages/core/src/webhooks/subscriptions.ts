import { randomBytes } from 'node:crypto';
import { daos, webhooks } from '@plenum/db';
import { DAO_WEBHOOK_EVENT_NAMES, STORAGE_WEBHOOK_EVENT_NAMES } from '@plenum/validators';
import { desc, eq, sql } from 'drizzle-orm';
import { actingAs } from '../governance/dao-authority';
import type { Services } from '../services';
import { AppError, badRequest, notFound } from '../shared/errors';
import { open, seal } from '../shared/secret-box';

/**
 * The event names a subscription may ask for (docs/webhooks.md, "Subscribing"): the validators' lists, which
 * the web app's forms offer too, so one list is offered and accepted.
 */
export const DAO_WEBHOOK_EVENTS = DAO_WEBHOOK_EVENT_NAMES;
export const STORAGE_WEBHOOK_EVENTS = STORAGE_WEBHOOK_EVENT_NAMES;

const PURPOSE = 'webhook secret';
type Row = typeof webhooks.$inferSelect;

export const serializeWebhook = (w: Row) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  daoId: w.daoId,
  enabled: w.enabled,
  disabledAt: w.disabledAt?.toISOString() ?? null,
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
});

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
export const secretOf = (svc: Pick<Services, 'config'>, w: Pick<Row, 'secretSealed'>) =>
  open(svc.config.secretKey(), PURPOSE, w.secretSealed);

function checkUrl(svc: Pick<Services, 'config'>, raw: string) {
  const url = new URL(raw);
  const allowHttp = svc.config.webhookAllowPrivateNetworks === true;
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:'))
    throw badRequest(
      'The webhook URL must use https',
      [{ path: 'url', message: 'must be an https URL' }],
      'VALIDATION_FAILED',
    );
  if (url.username || url.password)
    throw badRequest(
      'The webhook URL must not carry credentials',
      [{ path: 'url', message: 'must not contain a user name or password' }],
      'VALIDATION_FAILED',
    );
}

function checkEvents(daoId: string | null, events: readonly string[]) {
  const allowed: readonly string[] = daoId ? DAO_WEBHOOK_EVENTS : STORAGE_WEBHOOK_EVENTS;
  const wrong = events.filter((e) => !allowed.includes(e));
  if (wrong.length)
    throw badRequest(
      daoId
        ? `A DAO webhook takes DAO events: ${allowed.join(', ')}`
        : `A webhook without daoId takes your storage events: ${allowed.join(', ')}`,
      [{ path: 'events', message: `not allowed here: ${wrong.join(', ')}` }],
      'VALIDATION_FAILED',
    );
}

/** 404 unless the DAO exists; 403 NOT_DAO_ADMIN unless one of the caller's wallets is its owner or an admin */
async function requireDaoAdmin(svc: Services, userId: string, daoId: string) {
  const [dao] = await svc.db
    .select({ id: daos.id, ownerAddress: daos.ownerAddress })
    .from(daos)
    .where(eq(daos.id, daoId));
  if (!dao) throw notFound('DAO not found');
  await actingAs(svc.db, { userId, dao, power: 'settings' });
}

/** A webhook the caller may manage: their own, or their DAO's as its owner or admin; else 404. */
export async function webhookFor(svc: Services, params: { userId: string; webhookId: string }) {
  const [w] = await svc.db.select().from(webhooks).where(eq(webhooks.id, params.webhookId));
  if (!w) throw notFound('Webhook not found');
  if (w.userId === params.userId) return w;
  if (w.daoId) {
    try {
      await requireDaoAdmin(svc, params.userId, w.daoId);
      return w;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  throw notFound('Webhook not found');
}

export async function createWebhook(
  svc: Services,
  params: { userId: string; url: string; events: string[]; daoId?: string | null | undefined },
) {
  const daoId = params.daoId ?? null;
  checkUrl(svc, params.url);
  checkEvents(daoId, params.events);
  if (daoId) await requireDaoAdmin(svc, params.userId, daoId);
  const secret = newSecret();
  const [row] = await svc.db
    .insert(webhooks)
    .values({
      userId: params.userId,
      daoId,
      url: params.url,
      events: [...new Set(params.events)],
      secretSealed: seal(svc.config.secretKey(), PURPOSE, secret),
    })
    .returning();
  return { ...serializeWebhook(row!), secret };
}

/** The caller's own webhooks, or with `daoId` that DAO's (owner and admins only). */
export async function listWebhooks(svc: Services, params: { userId: string; daoId?: string | undefined }) {
  if (params.daoId) await requireDaoAdmin(svc, params.userId, params.daoId);
  const rows = await svc.db
    .select()
    .from(webhooks)
    .where(params.daoId ? eq(webhooks.daoId, params.daoId) : eq(webhooks.userId, params.userId))
    .orderBy(desc(webhooks.createdAt), desc(webhooks.id))
    .limit(200);
  return { items: rows.map(serializeWebhook) };
}

export async function updateWebhook(
  svc: Services,
  params: {
    userId: string;
    webhookId: string;
    url?: string | undefined;
    events?: string[] | undefined;
    enabled?: boolean | undefined;
  },
) {
  const w = await webhookFor(svc, params);
  if (params.url !== undefined) checkUrl(svc, params.url);
  if (params.events !== undefined) checkEvents(w.daoId, params.events);
  const [row] = await svc.db
    .update(webhooks)
    .set({
      ...(params.url !== undefined ? { url: params.url } : {}),
      ...(params.events !== undefined ? { events: [...new Set(params.events)] } : {}),
      // enabling again clears the automatic disabling (docs/webhooks.md, "Delivery")
      ...(params.enabled !== undefined ? { enabled: params.enabled, disabledAt: null } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(webhooks.id, w.id))
    .returning();
  if (!row) throw notFound('Webhook not found');
  return serializeWebhook(row);
}

export async function deleteWebhook(svc: Services, params: { userId: string; webhookId: string }) {
  const w = await webhookFor(svc, params);
  await svc.db.delete(webhooks).where(eq(webhooks.id, w.id));
}

/** A new secret, shown once; the old one stops signing at once. */
export async function rotateWebhookSecret(svc: Services, params: { userId: string; webhookId: string }) {
  const w = await webhookFor(svc, params);
  const secret = newSecret();
  await svc.db
    .update(webhooks)
    .set({ secretSealed: seal(svc.config.secretKey(), PURPOSE, secret), updatedAt: sql`now()` })
    .where(eq(webhooks.id, w.id));
  return { id: w.id, secret };
}
