import { type PinStatus, pins } from '@plenum/db';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Services } from '../services';
import { fetchPage, type Page } from '../shared/pagination';
import { pinView } from './pins';

/** The caller's pins with their metadata, newest first (the web app's file list). */
export async function listPinsOfUser(
  svc: Pick<Services, 'db'>,
  params: Page & { userId: string; status?: PinStatus | undefined },
) {
  const { db } = svc;
  const where = and(
    eq(pins.userId, params.userId),
    params.status ? eq(pins.status, params.status) : undefined,
  );
  const { rows, pagination } = await fetchPage(
    params,
    db.select().from(pins).where(where).orderBy(desc(pins.createdAt), desc(pins.id)).$dynamic(),
    db.select({ n: count() }).from(pins).where(where),
  );
  return { items: rows.map(pinView), pagination };
}
