import { type DbOrTx, type PinStatus, pins } from '@plenum/db';
import { and, count, desc, eq } from 'drizzle-orm';
import { offsetOf, type Page, paginationOf } from '../shared/pagination';
import { pinView } from './pins';

/** The caller's pins with their metadata, newest first (the web app's file list). */
export async function listPinsOfUser(
  db: DbOrTx,
  params: Page & { userId: string; status?: PinStatus | undefined },
) {
  const where = and(
    eq(pins.userId, params.userId),
    params.status ? eq(pins.status, params.status) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(pins)
      .where(where)
      .orderBy(desc(pins.createdAt), desc(pins.id))
      .limit(params.limit)
      .offset(offsetOf(params)),
    db.select({ n: count() }).from(pins).where(where),
  ]);
  return { items: rows.map(pinView), pagination: paginationOf(params, Number(total?.n ?? 0)) };
}
