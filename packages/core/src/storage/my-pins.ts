import { type PinStatus, pins } from '@plenum/db';
import type { MyPinsSort } from '@plenum/validators';
import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Services } from '../services';
import { likePattern } from '../shared/like';
import { fetchPage, type Page } from '../shared/pagination';
import { pinView } from './pins';

/** the caller's pins whose name, file name, CID or a `meta` value contains `q`, ignoring case */
function matching(q: string): SQL {
  const p = likePattern(q);
  return or(
    ilike(pins.name, p),
    ilike(pins.filename, p),
    ilike(pins.cid, p),
    sql`exists (select 1 from jsonb_each_text(${pins.meta}) as m where m.value ilike ${p})`,
  ) as SQL;
}

/** every order ends on the pin time and id, so that pages never skip or repeat a pin */
function orderOf(sort: MyPinsSort): SQL[] {
  if (sort === 'oldest') return [asc(pins.createdAt), asc(pins.id)];
  const newest = [desc(pins.createdAt), desc(pins.id)];
  if (sort === 'name')
    return [sql`lower(coalesce(${pins.name}, ${pins.filename})) asc nulls last`, ...newest];
  if (sort === 'size') return [sql`${pins.size} desc nulls last`, ...newest];
  return newest;
}

/**
 * The caller's pins with their metadata (the web app's file list): newest first unless `sort` says
 * otherwise, filtered by `status` and searched by `q` (docs/storage.md, "Pins").
 */
export async function listPinsOfUser(
  svc: Pick<Services, 'db'>,
  params: Page & {
    userId: string;
    status?: PinStatus | undefined;
    q?: string | undefined;
    sort?: MyPinsSort | undefined;
  },
) {
  const { db } = svc;
  const where = and(
    eq(pins.userId, params.userId),
    params.status ? eq(pins.status, params.status) : undefined,
    params.q ? matching(params.q) : undefined,
  );
  const { rows, pagination } = await fetchPage(
    params,
    db
      .select()
      .from(pins)
      .where(where)
      .orderBy(...orderOf(params.sort ?? 'newest'))
      .$dynamic(),
    db.select({ n: count() }).from(pins).where(where),
  );
  return { items: rows.map(pinView), pagination };
}
