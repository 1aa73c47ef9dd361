import { ManualClock, type Services } from '@plenum/core';
import { advanceDueProposals } from '@plenum/core/governance/status-automation';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from '../src/env';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { linkWallet, memberUser, newWallet } from './support/factories';
import { addMember, createDao, createProposal, type Member, tick } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Governance mails (docs/governance.md, "Notifications"): who gets "voting opened", the reminder and the
 * outcome, exactly once each however often and on however many instances the scheduler runs, and the
 * token-authenticated unsubscribe link. Time is a ManualClock; the scheduler is driven with tick().
 */

const HOUR = 3_600_000;
const clock = new ManualClock(Date.parse('2031-01-01T00:00:00Z'));
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
  // driven by hand: each pass is a tick() the test awaits
  await t.app.scheduler.stop();
});
afterAll(() => t.close());

type Row = Record<string, unknown>;
async function query(app: TestApp, q: ReturnType<typeof sql>): Promise<Row[]> {
  const res = (await app.app.dbHandle.db.execute(q)) as unknown;
  return (Array.isArray(res) ? res : (res as { rows: Row[] }).rows) as Row[];
}

interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string> | null;
}
const SUBJECT = { opened: 'Voting is open: ', reminder: 'Voting ends ', outcome: '' } as const;

/** the outbox mails about a proposal (by its title), of one kind */
async function mails(title: string, kind: keyof typeof SUBJECT): Promise<Mail[]> {
  const rows = (await query(
    t,
    sql`select "to", subject, text, html, headers from email_outbox where right(subject, ${title.length + 2}) = ${`: ${title}`}`,
  )) as unknown as Mail[];
  return rows.filter((m) => {
    if (kind === 'outcome') return /\] (Passed|Rejected): /.test(m.subject);
    return m.subject.includes(SUBJECT[kind]);
  });
}
const recipients = (ms: Mail[]) => ms.map((m) => m.to).sort();
const emails = (...users: { email: string }[]) => users.map((u) => u.email.toLowerCase()).sort();
const tokenOf = (m: Mail) => /unsubscribe\?token=([0-9a-f]{64})/.exec(m.text)![1]!;
const uniqueTitle = (s: string) => `${s} ${Math.random().toString(36).slice(2, 8)}`;

describe('governance notifications', () => {
  let owner: Member;
  let daoId: string;
  let voter: Member; // votes, later unsubscribes
  let twoWallets: Member;

  it('opened, reminder and outcome reach only opted-in eligible members, once each', async () => {
    owner = await memberUser(api);
    const dao = await createDao(api, owner);
    daoId = dao.daoId;
    voter = await memberUser(api);
    const optedOut = await memberUser(api);
    const suspended = await memberUser(api);
    const unverified = await memberUser(api);
    twoWallets = await memberUser(api);
    const second = await linkWallet(api, twoWallets);
    const outsider = await memberUser(api); // not a member
    for (const address of [
      voter.wallet.address,
      optedOut.wallet.address,
      suspended.wallet.address,
      unverified.wallet.address,
      twoWallets.wallet.address,
      second.address,
      newWallet().address, // a bare wallet: no account, no mail
    ])
      await addMember(api, owner, daoId, address);
    const off = await api.put(
      `/users/${optedOut.id}/preferences`,
      { notifications: { email: false } },
      { token: optedOut.token },
    );
    expect(off.status).toBe(200);
    await query(t, sql`update users set status = 'suspended' where id = ${suspended.id}`);
    await query(t, sql`update users set email_verified = false where id = ${unverified.id}`);

    const title = uniqueTitle('Garden <b>&</b> "fund"');
    const start = new Date(clock.now().getTime() + HOUR);
    const p = await createProposal(api, owner, daoId, {
      title,
      votingDurationHours: 72,
      startTime: start.toISOString(),
    });
    const end = new Date(start.getTime() + 72 * HOUR);
    await tick(t);
    expect(await mails(title, 'opened')).toHaveLength(0); // PENDING: nothing yet

    // voting starts: the scheduler freezes the electorate and queues "opened", once however often it runs
    clock.set(start);
    await Promise.all([tick(t), tick(t)]);
    await tick(t);
    const opened = await mails(title, 'opened');
    expect(recipients(opened)).toEqual(emails(owner, voter, twoWallets));
    expect(recipients(opened)).not.toContain(outsider.email.toLowerCase());

    // the content: title, DAO, end time (UTC and relative), link, unsubscribe link and headers; HTML escaped
    const mail = opened.find((m) => m.to === voter.email.toLowerCase())!;
    expect(mail.subject).toBe(`[${dao.name}] Voting is open: ${title}`);
    expect(mail.text).toContain(`Proposal: ${title}`);
    expect(mail.text).toContain(`DAO: ${dao.name}`);
    expect(mail.text).toContain(
      `Voting ends: ${end.toISOString().slice(0, 16).replace('T', ' ')} UTC (in 3 days)`,
    );
    expect(mail.text).toContain(`http://localhost:3000/proposals/${p.proposalId}`);
    expect(mail.html).toContain(`href="http://localhost:3000/proposals/${p.proposalId}"`);
    expect(mail.html).toContain('Garden &lt;b&gt;&amp;&lt;/b&gt; &quot;fund&quot;');
    expect(mail.html).not.toContain('<b>&</b>');
    const token = tokenOf(mail);
    expect(mail.html).toContain(`/notifications/unsubscribe?token=${token}`);
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<${t.app.svc.config.storage.publicUrl}/notifications/unsubscribe?token=${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    // every mail has its own token
    expect(new Set(opened.map(tokenOf)).size).toBe(opened.length);

    // one member votes; the reminder (24 h before the end) skips them
    const vote = await api.post(
      '/votes',
      { proposalId: p.proposalId, daoId, voterAddress: voter.wallet.address, choice: 'For' },
      { token: voter.token },
    );
    expect(vote.status, JSON.stringify(vote.body)).toBe(201);
    clock.set(end.getTime() - 24 * HOUR - 60_000);
    await tick(t);
    expect(await mails(title, 'reminder')).toHaveLength(0); // not due yet
    clock.set(end.getTime() - 24 * HOUR + 60_000);
    await Promise.all([tick(t), tick(t)]);
    await tick(t);
    const reminders = await mails(title, 'reminder');
    expect(recipients(reminders)).toEqual(emails(owner, twoWallets));
    expect(reminders[0]!.subject).toBe(`[${dao.name}] Voting ends in 24 hours: ${title}`);

    // the end: the outcome with the result summary, once
    clock.set(end.getTime() + 1_000);
    await Promise.all([tick(t), tick(t)]);
    await tick(t);
    const outcome = await mails(title, 'outcome');
    expect(recipients(outcome)).toEqual(emails(owner, voter, twoWallets));
    expect(outcome[0]!.subject).toBe(`[${dao.name}] Passed: ${title}`);
    expect(outcome[0]!.text).toContain('Outcome: PASSED');
    expect(outcome[0]!.text).toContain('For: 1 vote, weight 1 (100%)');
    expect(outcome[0]!.text).toContain('Quorum: 0% (reached); leading option: For');
    expect(outcome[0]!.text).toMatch(/Voting ended: .* UTC \(just now\)/);

    const [counts] = await query(
      t,
      sql`select count(*)::int as n from governance_notifications where proposal_id = ${p.proposalId}`,
    );
    expect(counts!.n).toBe(3 + 2 + 3);
  });

  it('a proposal that opens at creation mails at once; a short one gets no reminder', async () => {
    const title = uniqueTitle('Short one');
    const p = await createProposal(api, owner, daoId, { title, votingDurationHours: 30 });
    expect(recipients(await mails(title, 'opened'))).toEqual(emails(owner, voter, twoWallets));
    // 30 h < 2 × 24 h: the reminder would come 6 h after the opening mail, so none is sent
    clock.advance(6 * HOUR + 60_000);
    await tick(t);
    clock.advance(23 * HOUR);
    await tick(t);
    expect(await mails(title, 'reminder')).toHaveLength(0);
    clock.advance(HOUR);
    await tick(t);
    expect(recipients(await mails(title, 'outcome'))).toEqual(emails(owner, voter, twoWallets));
    const [row] = await query(t, sql`select status from proposals where id = ${p.proposalId}`);
    expect(row!.status).toBe('REJECTED');
  });

  it('unsubscribes without a session through the mailed link, and stops further mails', async () => {
    const title = uniqueTitle('Before unsubscribing');
    await createProposal(api, owner, daoId, { title });
    const mail = (await mails(title, 'opened')).find((m) => m.to === voter.email.toLowerCase())!;
    const token = tokenOf(mail);
    const link = `/notifications/unsubscribe?token=${token}`;
    const prefs = async () =>
      (await api.get(`/users/${voter.id}/preferences`, { token: voter.token })).body.notifications.email;

    // GET (what a mail scanner prefetches) only shows the confirmation page
    const page = await api.get(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<form method="post">');
    expect(page.text).not.toContain(voter.email);
    expect(await prefs()).toBe(true);

    // the RFC 8058 one-click POST, as a mail client sends it: no cookie, no session
    const done = await api.post(link, undefined, {
      raw: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ unsubscribed: true, notifications: { email: false } });
    expect(await prefs()).toBe(false);
    // again (the confirmation page's button, in a browser): still fine, an HTML answer
    const again = await api.post(link, undefined, {
      raw: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    });
    expect(again.status).toBe(200);
    expect(again.text).toContain('Unsubscribed');

    const next = uniqueTitle('After unsubscribing');
    await createProposal(api, owner, daoId, { title: next });
    expect(recipients(await mails(next, 'opened'))).toEqual(emails(owner, twoWallets));
  });

  it('refuses bad, unknown and expired tokens with the same 400, revealing nothing', async () => {
    const title = uniqueTitle('Token checks');
    await createProposal(api, owner, daoId, { title });
    const good = tokenOf((await mails(title, 'opened')).find((m) => m.to === owner.email.toLowerCase())!);
    const bodies: unknown[] = [];
    for (const q of [
      '',
      '?token=',
      '?token=nope',
      `?token=${'0'.repeat(64)}`,
      `?token=${good.toUpperCase()}`,
    ]) {
      for (const res of [
        await api.get(`/notifications/unsubscribe${q}`),
        await api.post(`/notifications/unsubscribe${q}`),
      ]) {
        expect(res.status, `${q}: ${res.text}`).toBe(400);
        expect(res.body).toMatchObject({ code: 'BAD_REQUEST', reason: 'INVALID_TOKEN' });
        bodies.push(res.body);
      }
    }
    // expired: 90 days after the mail
    clock.advance(91 * 24 * HOUR);
    const expired = await api.post(`/notifications/unsubscribe?token=${good}`);
    expect(expired.status).toBe(400);
    bodies.push(expired.body);
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(JSON.stringify(bodies[0])).not.toContain('@');
    // nothing changed for the owner (whose session has expired by now: read the row)
    const [row] = await query(t, sql`select preferences from users where id = ${owner.id}`);
    expect(
      (row!.preferences as { notifications?: { email?: boolean } } | null)?.notifications?.email,
    ).not.toBe(false);
  });
});

describe('PROPOSAL_REMINDER_HOURS', () => {
  it('is validated: a number of hours from 0 (off) to 8760, 24 by default', () => {
    expect(loadEnv({}).PROPOSAL_REMINDER_HOURS).toBe(24);
    expect(loadEnv({ PROPOSAL_REMINDER_HOURS: '0' }).PROPOSAL_REMINDER_HOURS).toBe(0);
    expect(loadEnv({ PROPOSAL_REMINDER_HOURS: '1.5' }).PROPOSAL_REMINDER_HOURS).toBe(1.5);
    for (const bad of ['-1', 'abc', '1e3', '9000', '24h'])
      expect(() => loadEnv({ PROPOSAL_REMINDER_HOURS: bad }), bad).toThrow(EnvError);
  });
});

/** `svc` whose database calls (statements started and transactions) are counted */
function counting(svc: Services) {
  let n = 0;
  const wrap = <T extends object>(db: T): T =>
    new Proxy(db, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function') return v;
        if (prop === 'transaction')
          return (cb: (tx: object) => unknown, ...rest: unknown[]) => {
            n++;
            return (v as (...a: unknown[]) => unknown).call(target, (tx: object) => cb(wrap(tx)), ...rest);
          };
        if (['select', 'insert', 'update', 'delete', 'execute'].includes(String(prop)))
          return (...args: unknown[]) => {
            n++;
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        return (v as (...a: unknown[]) => unknown).bind(target);
      },
    });
  return { svc: { ...svc, db: wrap(svc.db) } as Services, count: () => n };
}

describe('a large DAO', () => {
  const N = 2_000;
  let b: TestApp | null = null;
  beforeAll(async () => {
    if (TEST_DB === 'postgres') {
      b = await startTestApp({ clock, databaseUrl: t.databaseUrl! });
      await b.app.scheduler.stop();
    }
  });
  afterAll(() => b?.close());

  it(`mails ${N} members in a handful of statements, once each, ${TEST_DB === 'postgres' ? 'with two instances' : 'with concurrent passes'}`, async () => {
    await tick(t); // earlier tests' proposals are closed first, so the counted pass below has only this one
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    const tag = Math.random().toString(36).slice(2, 8);
    // N verified users, each with one wallet in the DAO, and one more with three wallets in it
    await query(
      t,
      sql`with u as (
            insert into users (email, password_hash, first_name, last_name, status, email_verified)
            select 'bulk-' || ${tag} || '-' || g || '@example.org', 'x', 'Bulk', 'Member', 'active', true
            from generate_series(1, ${N}::int) g returning id, email)
          insert into wallets (address, user_id)
          select '0x' || md5(u.email || k) , u.id from u, generate_series(1, 3) k
          where k = 1 or u.email = ${`bulk-${tag}-1@example.org`}`,
    );
    await query(
      t,
      sql`insert into dao_members (dao_id, address)
          select ${dao.daoId}::uuid, w.address from wallets w join users u on u.id = w.user_id
          where u.email like ${`bulk-${tag}-%`}`,
    );
    const title = uniqueTitle('Big vote');
    const start = new Date(clock.now().getTime() + HOUR);
    const p = await createProposal(api, owner, dao.daoId, {
      title,
      votingDurationHours: 48,
      startTime: start.toISOString(),
    });
    const kinds = async () =>
      Object.fromEntries(
        (
          await query(
            t,
            sql`select kind, count(*)::int as n, count(distinct user_id)::int as users
                from governance_notifications where proposal_id = ${p.proposalId} group by kind`,
          )
        ).map((r) => [r.kind as string, [r.n, r.users]]),
      );
    const outboxCount = async (kind: keyof typeof SUBJECT) => (await mails(title, kind)).length;
    const apps = [t, b ?? t];

    clock.set(start);
    // the activation, counted: its statements do not grow with the membership
    const counted = counting(t.app.svc);
    expect(await advanceDueProposals(counted.svc)).toBe(1);
    expect(counted.count(), 'statements of the activation').toBeLessThan(25);
    await Promise.all([tick(apps[1]!), tick(apps[0]!)]); // nothing more
    expect(await kinds()).toEqual({ opened: [N + 1, N + 1] }); // N bulk users and the owner
    expect(await outboxCount('opened')).toBe(N + 1);

    clock.set(start.getTime() + 24 * HOUR + 1_000);
    await Promise.all([tick(apps[0]!), tick(apps[1]!), tick(apps[0]!), tick(apps[1]!)]);
    expect((await kinds()).reminder).toEqual([N + 1, N + 1]);
    expect(await outboxCount('reminder')).toBe(N + 1);

    clock.set(start.getTime() + 48 * HOUR);
    await Promise.all([tick(apps[0]!), tick(apps[1]!), tick(apps[0]!), tick(apps[1]!)]);
    expect((await kinds()).outcome).toEqual([N + 1, N + 1]);
    expect(await outboxCount('outcome')).toBe(N + 1);
    // the member with three wallets got one mail of each kind
    const three = (
      await query(t, sql`select subject from email_outbox where "to" = ${`bulk-${tag}-1@example.org`}`)
    )
      .map((r) => r.subject as string)
      .filter((s) => s.endsWith(title));
    expect(three).toHaveLength(3);
  });
});
