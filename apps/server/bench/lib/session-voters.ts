import { createHash, randomBytes } from 'node:crypto';
import type postgres from 'postgres';
import { getAddress } from 'viem';

/**
 * Voters with a session each, seeded straight into the database (registering tens of thousands of accounts
 * over HTTP is not what the vote benches measure): users, a primary wallet, a session token, and a
 * membership of `daoId` with balance 0 (equal voting).
 */
export async function seedSessionVoters(sql: postgres.Sql, daoId: string, n: number) {
  const voters: { address: string; token: string }[] = [];
  const now = Date.now();
  for (let offset = 0; offset < n; offset += 2_000) {
    const batch = Array.from({ length: Math.min(2_000, n - offset) }, (_, i) => ({
      id: crypto.randomUUID(),
      email: `bench.${offset + i}.${randomBytes(3).toString('hex')}@example.org`,
      address: getAddress(`0x${randomBytes(20).toString('hex')}`),
      token: randomBytes(32).toString('base64url'),
    }));
    await sql`insert into users ${sql(
      batch.map((b) => ({
        id: b.id,
        email: b.email,
        password_hash: 'x',
        first_name: 'Bench',
        last_name: 'Voter',
        status: 'active',
        email_verified: true,
      })),
    )}`;
    await sql`insert into wallets ${sql(batch.map((b) => ({ address: b.address, user_id: b.id, is_primary: true })))}`;
    await sql`insert into sessions ${sql(
      batch.map((b) => ({
        user_id: b.id,
        token_hash: createHash('sha256').update(b.token).digest('hex'),
        expires_at: new Date(now + 86_400_000),
      })),
    )}`;
    await sql`insert into dao_members ${sql(batch.map((b) => ({ dao_id: daoId, address: b.address, token_balance: '0' })))}`;
    voters.push(...batch.map((b) => ({ address: b.address, token: b.token })));
  }
  return voters;
}
