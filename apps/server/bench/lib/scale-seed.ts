import { createHash } from 'node:crypto';
import type { Sql } from 'postgres';

/**
 * Seeds the `scale` suite's data set straight into PostgreSQL with `INSERT … SELECT generate_series(…)`:
 * rows as the app itself would have left them (foreign keys, statuses, frozen electorates, tallies that
 * equal a recount of the votes), only written in bulk. Ids are derived from a key (md5, shaped as a v4
 * UUID) so that the suite knows them without reading them back.
 */
export interface ScaleSizes {
  users: number;
  daos: number;
  /** votes on the one hot proposal (and members of its DAO: each vote needs a voter in the electorate) */
  votes: number;
  /** votes on the baseline proposal of the same DAO */
  baselineVotes: number;
  /** proposals of the "busy" DAO (half ACTIVE, half PENDING), for a deep page of a DAO's proposals */
  busyProposals: number;
  /** the admin's own sessions, pins and revoked tokens, for deep pages of the caller's own lists */
  adminSessions: number;
  adminPins: number;
  adminRevokedTokens: number;
}

/** at most 50 live tokens per user (packages/core/src/auth/access-tokens.ts) */
export const ADMIN_ACTIVE_TOKENS = 50;
/** packages/core/src/governance/vote-commit.ts, TALLY_SHARDS */
const TALLY_SHARDS = 8;

/** the same v4-shaped UUID as the SQL expression `uid(key)` below */
export function idOf(key: string): string {
  const h = createHash('md5').update(key).digest('hex').split('');
  h[12] = '4';
  h[16] = '8';
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
const uid = (key: string) => `overlay(overlay(md5(${key}) placing '4' from 13) placing '8' from 17)::uuid`;

/** user i's wallet: only decimal digits, so the address is its own EIP-55 checksum form */
export const walletOf = (i: number) => `0x${String(i).padStart(40, '0')}`;
const wallet = (expr: string) => `'0x' || lpad((${expr})::text, 40, '0')`;
/** voter k of the hot DAO (a bare wallet, as signed voters are) */
export const voterOf = (k: number) => `0x9${String(k).padStart(39, '0')}`;
const voter = (expr: string) => `'0x9' || lpad((${expr})::text, 39, '0')`;
/** the token of user i's session (the admin, user 1, also has `scale-admin-session-<k>`) */
export const sessionTokenOf = (i: number) => `scale-session-${i}`;
const sha256hex = (expr: string) => `encode(sha256(convert_to(${expr}, 'UTF8')), 'hex')`;
/** a CIDv1 (raw, sha2-256) in base32: 'bafkrei' fixes the prefix, the 8th character carries 3 digest bits */
const cid = (n: string) =>
  `'bafkrei' || chr(97 + (${n}) % 8) || translate(substr(md5('c' || ${n}) || md5('d' || ${n}), 1, 50), '0189', 'wxyz') || 'a'`;

/** user i (1 = the admin): 1 in 50 suspended, 1 in 20 of the rest pending verification, 1 in 101 deleted */
const SUSPENDED = (i: string) => `(${i} > 1 and ${i} % 50 = 0)`;
const PENDING = (i: string) => `(${i} > 1 and ${i} % 20 = 0 and ${i} % 50 <> 0)`;
const DELETED = (i: string) => `(${i} > 1 and ${i} % 101 = 0)`;
/** DAO j: 1 = the hot DAO (votes), 2 = the busy DAO (proposals); 1 in 40 PENDING, 1 in 25 INACTIVE */
const DAO_STATUS = (j: string) =>
  `case when ${j} > 2 and ${j} % 40 = 0 then 'PENDING' when ${j} > 2 and ${j} % 25 = 0 then 'INACTIVE' else 'ACTIVE' end`;
/** every 5th DAO is owned by user 2, so one owner has a deep list of DAOs */
const DAO_OWNER = (j: string, users: number) =>
  `case when ${j} % 5 = 0 then ${wallet('2')} else ${wallet(`(${j} - 1) % ${users} + 1`)} end`;

export const HOT_DAO = idOf('d1');
export const BUSY_DAO = idOf('d2');
export const HOT_PROPOSAL = idOf('p-hot');
export const BASELINE_PROPOSAL = idOf('p-baseline');
export const ADMIN_ID = idOf('u1');

/** `sql` should allow 3 connections: the three big inserts run at once */
export async function seedScale(
  sql: Sql,
  s: ScaleSizes,
  now: Date,
  progress: (line: string) => void,
): Promise<void> {
  const t0 = `'${now.toISOString()}'::timestamptz`;
  type Step = [label: string, sql: string];
  const steps: (Step | Step[])[] = [
    [
      `${s.users.toLocaleString('en')} users`,
      `insert into users (id, email, password_hash, first_name, last_name, status, status_before_suspension, role,
         email_verified, terms_accepted_at, verified_at, suspended_at, suspension_reason, suspended_by,
         deleted_at, created_at, updated_at)
       select ${uid(`'u' || i`)}, 'user' || i || '@scale.example.org', 'x', 'First' || i, 'Last' || i,
         case when ${SUSPENDED('i')} then 'suspended' when ${PENDING('i')} then 'pending_verification' else 'active' end,
         case when ${SUSPENDED('i')} then 'active' end,
         case when i = 1 then 'admin' else 'user' end,
         not ${PENDING('i')}, c, case when not ${PENDING('i')} then c + interval '5 minutes' end,
         case when ${SUSPENDED('i')} then c + interval '10 seconds' end,
         case when ${SUSPENDED('i')} then 'scale bench' end,
         case when ${SUSPENDED('i')} then ${uid(`'u1'`)} end,
         case when ${DELETED('i')} then c + interval '20 seconds' end,
         c, c
       from generate_series(1, ${s.users}) i, lateral (select ${t0} - (${s.users} - i + 10) * interval '1 minute' as c) t`,
    ],
    [
      'wallets',
      `insert into wallets (address, user_id, is_primary, created_at)
       select ${wallet('i')}, ${uid(`'u' || i`)}, true, ${t0} - (${s.users} - i + 10) * interval '1 minute'
       from generate_series(1, ${s.users}) i`,
    ],
    [
      'audit log of the suspensions',
      `insert into audit_log (actor_id, action, target_type, target_id, reason, details, created_at)
       select ${uid(`'u1'`)}, 'user.suspend', 'user', (${uid(`'u' || i`)})::text, 'scale bench',
         '{"from":"active"}'::jsonb, ${t0} - (${s.users} - i + 10) * interval '1 minute' + interval '10 seconds'
       from generate_series(1, ${s.users}) i where ${SUSPENDED('i')}`,
    ],
    [
      'sessions (one per signed-in user, and the admin’s)',
      `insert into sessions (user_id, token_hash, expires_at, created_at, last_used_at, user_agent, ip)
       select ${uid(`'u' || i`)}, ${sha256hex(`'scale-session-' || i`)}, ${t0} + interval '30 days', c, c,
         'Mozilla/5.0 (scale bench)', '127.0.0.1'
       from generate_series(1, ${s.users}) i, lateral (select ${t0} - (${s.users} - i + 10) * interval '1 minute' + interval '30 seconds' as c) t
       where not ${SUSPENDED('i')} and not ${DELETED('i')} and not ${PENDING('i')};
       insert into sessions (user_id, token_hash, expires_at, created_at, last_used_at, user_agent, ip)
       select ${uid(`'u1'`)}, ${sha256hex(`'scale-admin-session-' || k`)}, ${t0} + interval '30 days', c, c,
         'Mozilla/5.0 (scale bench)', '127.0.0.1'
       from generate_series(1, ${s.adminSessions}) k, lateral (select ${t0} - k * interval '1 minute' as c) t`,
    ],
    [
      'access tokens',
      `insert into access_tokens (user_id, name, token_hash, prefix, created_at)
       select ${uid(`'u' || i`)}, 'scripts', ${sha256hex(`'scale-pat-' || i`)}, 'plm_' || substr(md5('pat' || i), 1, 6),
         ${t0} - (${s.users} - i + 10) * interval '1 minute' + interval '40 seconds'
       from generate_series(1, ${s.users}) i where not ${SUSPENDED('i')} and not ${DELETED('i')};
       insert into access_tokens (user_id, name, token_hash, prefix, created_at, revoked_at)
       select ${uid(`'u1'`)}, 'token ' || k, ${sha256hex(`'scale-admin-pat-' || k`)}, 'plm_' || substr(md5('apat' || k), 1, 6),
         ${t0} - k * interval '1 minute', case when k > ${ADMIN_ACTIVE_TOKENS - 1} then ${t0} - k * interval '1 second' end
       from generate_series(1, ${ADMIN_ACTIVE_TOKENS - 1 + s.adminRevokedTokens}) k`,
    ],
    [
      'pins',
      `insert into pins (cid, owner, user_id, status, name, filename, mimetype, size, meta, origins, verified_at, created_at, updated_at)
       select ${cid('i')}, ${wallet('i')}, ${uid(`'u' || i`)}, 'pinned', 'file-' || i, 'file-' || i || '.txt',
         'text/plain', 1000 + i, '{}'::jsonb, '[]'::jsonb, c, c, c
       from generate_series(1, ${s.users}) i, lateral (select ${t0} - (${s.users} - i + 10) * interval '1 minute' + interval '30 seconds' as c) t
       where not ${DELETED('i')};
       insert into pins (cid, owner, user_id, status, name, filename, mimetype, size, meta, origins, verified_at, created_at, updated_at)
       select ${cid(`(${s.users} + k)`)}, ${wallet('1')}, ${uid(`'u1'`)}, 'pinned', 'admin-file-' || k, 'admin-file-' || k || '.txt',
         'text/plain', 1000 + k, '{}'::jsonb, '[]'::jsonb, c, c, c
       from generate_series(1, ${s.adminPins}) k, lateral (select ${t0} - k * interval '1 minute' - interval '1 millisecond' as c) t`,
    ],
    [
      `${s.daos.toLocaleString('en')} DAOs, their owners as members`,
      `insert into daos (id, name, description, owner_address, status, threshold, min_voting_period, token_weighted, quorum, created_at, updated_at)
       select ${uid(`'d' || j`)}, 'DAO ' || j, 'Seeded by the scale bench', ${DAO_OWNER('j', s.users)}, ${DAO_STATUS('j')},
         50, 1, false, 0, c, c
       from generate_series(1, ${s.daos}) j, lateral (select ${t0} - (${s.daos} - j + 1) * interval '5 minutes' - interval '4 days' as c) t;
       insert into dao_members (dao_id, address, token_balance, created_at)
       select id, owner_address, 0, created_at from daos`,
    ],
    [
      'proposals',
      `insert into proposals (id, dao_id, title, description, creator_address, status, start_time, end_time, proposal_data,
         voting_options, snapshot_at, eligible_voters, eligible_weight, created_at, updated_at,
         threshold, min_voting_period, token_weighted)
       values
         (${uid(`'p-baseline'`)}, ${uid(`'d1'`)}, 'Baseline: ${s.baselineVotes} votes', '', ${wallet('1')}, 'ACTIVE',
          ${t0} - interval '2.5 days', ${t0} + interval '30 days', '{}', '["For","Against","Abstain"]',
          ${t0} - interval '2.5 days', ${s.baselineVotes}, ${s.baselineVotes}, ${t0} - interval '2.5 days', ${t0} - interval '2.5 days', 50, 1, false),
         (${uid(`'p-hot'`)}, ${uid(`'d1'`)}, 'Hot: ${s.votes} votes', '', ${wallet('1')}, 'ACTIVE',
          ${t0} - interval '1 day', ${t0} + interval '30 days', '{}', '["For","Against","Abstain"]',
          ${t0} - interval '1 day', ${s.votes}, ${s.votes}, ${t0} - interval '1 day', ${t0} - interval '1 day', 50, 1, false);
       insert into proposals (id, dao_id, title, description, creator_address, status, start_time, end_time, proposal_data,
         voting_options, snapshot_at, eligible_voters, eligible_weight, created_at, updated_at,
         threshold, min_voting_period, token_weighted)
       select ${uid(`'pb' || m`)}, ${uid(`'d2'`)}, 'Busy DAO proposal ' || m, '', ${wallet('2')},
         case when m % 2 = 0 then 'ACTIVE' else 'PENDING' end,
         case when m % 2 = 0 then c else ${t0} + interval '30 days' end,
         case when m % 2 = 0 then ${t0} + interval '30 days' else ${t0} + interval '37 days' end,
         '{}', '["For","Against","Abstain"]',
         case when m % 2 = 0 then c end, case when m % 2 = 0 then 1 else 0 end, case when m % 2 = 0 then 1 else 0 end, c, c,
         50, 1, false
       from generate_series(1, ${s.busyProposals}) m, lateral (select ${t0} - (${s.busyProposals} - m + 1) * interval '30 seconds' as c) t;
       insert into proposals (id, dao_id, title, description, creator_address, status, start_time, end_time, proposal_data,
         voting_options, snapshot_at, eligible_voters, eligible_weight, created_at, updated_at,
         threshold, min_voting_period, token_weighted)
       select ${uid(`'po' || j`)}, d.id, 'Proposal of DAO ' || j, '', d.owner_address, 'ACTIVE', c, ${t0} + interval '30 days',
         '{}', '["For","Against","Abstain"]', c, 1, 1, c, c, d.threshold, d.min_voting_period, d.token_weighted
       from generate_series(3, ${s.daos}) j
       join daos d on d.id = ${uid(`'d' || j`)} and d.status = 'ACTIVE',
       lateral (select d.created_at + interval '1 hour' as c) t`,
    ],
    // independent of each other: on separate connections at once
    [
      [
        `${s.votes.toLocaleString('en')} members of the hot DAO`,
        // the first baselineVotes joined before the baseline proposal started, the others before the hot one
        `insert into dao_members (dao_id, address, token_balance, created_at)
         select ${uid(`'d1'`)}, ${voter('k')}, 0,
           case when k <= ${s.baselineVotes} then ${t0} - interval '3 days' + k * interval '1 second'
                else ${t0} - interval '2 days' + k * interval '50 milliseconds' end
         from generate_series(1, ${s.votes}) k`,
      ],
      [
        'frozen electorates',
        `insert into proposal_electorate (proposal_id, address, weight)
         select ${uid(`'p-baseline'`)}, ${voter('k')}, 1 from generate_series(1, ${s.baselineVotes}) k;
         insert into proposal_electorate (proposal_id, address, weight)
         select ${uid(`'p-hot'`)}, ${voter('k')}, 1 from generate_series(1, ${s.votes}) k;
         insert into proposal_electorate (proposal_id, address, weight)
         select p.id, d.owner_address, 1 from proposals p join daos d on d.id = p.dao_id
         where p.status = 'ACTIVE' and p.dao_id <> ${uid(`'d1'`)}`,
      ],
      [
        `${(s.votes + s.baselineVotes).toLocaleString('en')} votes`,
        `insert into votes (proposal_id, dao_id, voter_address, choice, weight, created_at, updated_at)
         select ${uid(`'p-baseline'`)}, ${uid(`'d1'`)}, ${voter('k')},
           case when k % 5 = 0 then 'Abstain' when k % 2 = 0 then 'For' else 'Against' end, 1, c, c
         from generate_series(1, ${s.baselineVotes}) k, lateral (select ${t0} - interval '2.5 days' + k * interval '1 second' as c) t;
         insert into votes (proposal_id, dao_id, voter_address, choice, weight, created_at, updated_at)
         select ${uid(`'p-hot'`)}, ${uid(`'d1'`)}, ${voter('k')},
           case when k % 5 = 0 then 'Abstain' when k % 2 = 0 then 'For' else 'Against' end, 1, c, c
         from generate_series(1, ${s.votes}) k, lateral (select ${t0} - interval '1 day' + k * interval '50 milliseconds' as c) t`,
      ],
    ],
    [
      'tallies (aggregated from the votes)',
      `insert into proposal_tallies (proposal_id, option, shard, votes, weight, updated_at)
       select proposal_id, choice, abs(hashtext(voter_address)) % ${TALLY_SHARDS}, count(*), sum(weight), max(created_at)
       from votes group by 1, 2, 3`,
    ],
    ['vacuum analyze', 'vacuum analyze'],
  ];
  const run = async ([label, text]: Step) => {
    const started = performance.now();
    await sql.unsafe(text).simple();
    progress(`seeded ${label} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  for (const step of steps) {
    if (typeof step[0] === 'string') await run(step as Step);
    else await Promise.all((step as Step[]).map(run));
  }
}
