import { daoRoles } from '@plenum/db';
import type { sql } from 'drizzle-orm';
import type { TestApp } from './app';
import type { ApiClient } from './http';

/**
 * Helpers of the cancel, edit and proposer tests. Roles are written straight into the table: the roles
 * endpoints have tests of their own, and these tests are about what a role allows.
 */

export async function grantRole(
  t: TestApp,
  daoId: string,
  address: string,
  role: 'admin' | 'moderator' | 'author',
) {
  await t.app.dbHandle.db.insert(daoRoles).values({ daoId, address, role, grantedBy: null });
}

type Row = Record<string, unknown>;
export async function query(t: TestApp, q: ReturnType<typeof sql>): Promise<Row[]> {
  const res = (await t.app.dbHandle.db.execute(q)) as unknown;
  return (Array.isArray(res) ? res : (res as { rows: Row[] }).rows) as Row[];
}

export const patch = (api: ApiClient, path: string, body: unknown, token?: string) =>
  api.request('PATCH', path, body, { token });

export const cancel = (api: ApiClient, proposalId: string, body: Record<string, unknown>, token?: string) =>
  api.post(`/proposals/${proposalId}/cancel`, body, { token });
