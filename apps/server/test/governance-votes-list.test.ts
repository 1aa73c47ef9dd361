import { ManualClock } from '@plenum/core';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { createDao, createProposal, signedVote, walletMembers } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * GET /votes/proposal/{proposalId} with `choice` and `sort` (docs/governance.md, "Listing the votes"):
 * which votes support an option in each voting system, the three orders with their tiebreakers, pages
 * that neither overlap nor skip, and the 400s and 409 of bad or untimely input.
 */
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2031-05-01T00:00:00Z'));
const nowS = () => Math.floor(clock.now().getTime() / 1000);

beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

type Vote = { voteId: string; voterAddress: string; choice: unknown; weight: string; createdAt: string };
type List = { items: Vote[]; pagination: { total: number; page: number; limit: number; totalPages: number } };

/** a token-weighted DAO whose wallet members hold `balances`, with one open proposal */
async function weightedProposal(balances: number[], proposal: Record<string, unknown> = {}, rules = {}) {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner, {
    threshold: 50,
    minVotingPeriod: 0,
    tokenWeighted: true,
    ...rules,
  });
  const wallets = await walletMembers(api, owner, dao.daoId, balances.length);
  for (const [i, w] of wallets.entries()) {
    const res = await api.put(
      `/daos/${dao.daoId}/members/${w.address}`,
      { tokenBalance: String(balances[i]) },
      { token: owner.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const p = await createProposal(api, owner, dao.daoId, proposal);
  return { daoId: dao.daoId, proposalId: p.proposalId, wallets };
}

const canonical = (v: unknown) =>
  typeof v === 'string' ? v : JSON.stringify(v, Object.keys(v as object).sort());

/** a vote by signature at the clock's current time (advance the clock for distinct times) */
async function vote(p: { daoId: string; proposalId: string }, w: PrivateKeyAccount, choice: unknown) {
  const body = await signedVote(
    w,
    { daoId: p.daoId, proposalId: p.proposalId, choice: canonical(choice) },
    nowS(),
  );
  const res = await api.post('/votes', { ...body, choice });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Vote;
}

const list = async (proposalId: string, query: string) => {
  const res = await api.get(`/votes/proposal/${proposalId}?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as List;
};

/** every page of a listing at `limit`, concatenated */
async function allPages(proposalId: string, query: string, limit: number) {
  const first = await list(proposalId, `${query}&limit=${limit}&page=1`);
  const items = [...first.items];
  for (let page = 2; page <= first.pagination.totalPages; page++)
    items.push(...(await list(proposalId, `${query}&limit=${limit}&page=${page}`)).items);
  return { items, total: first.pagination.total };
}

describe('sort', () => {
  it('newest (default), oldest and weight, with time and id breaking ties, page by page', async () => {
    const p = await weightedProposal([5, 30, 5, 30, 10, 5]);
    const [a, b, c, d, e, f] = p.wallets;
    const cast: Vote[] = [];
    // a and b in one second, c alone, then d, e and f in one second: equal times need the id tiebreaker
    cast.push(await vote(p, a!, 'For'), await vote(p, b!, 'Against'));
    clock.advance(2_000);
    cast.push(await vote(p, c!, 'For'));
    clock.advance(2_000);
    cast.push(await vote(p, d!, 'Abstain'), await vote(p, e!, 'For'), await vote(p, f!, 'Against'));

    const byTimeThenId = (x: Vote, y: Vote) =>
      x.createdAt === y.createdAt ? (x.voteId < y.voteId ? -1 : 1) : x.createdAt < y.createdAt ? -1 : 1;
    const oldest = [...cast].sort(byTimeThenId).map((v) => v.voteId);
    const newest = [...oldest].reverse();
    const weight = [...cast]
      .sort((x, y) => Number(y.weight) - Number(x.weight) || -byTimeThenId(x, y))
      .map((v) => v.voteId);

    const ids = (l: { items: Vote[] }) => l.items.map((v) => v.voteId);
    expect(ids(await list(p.proposalId, ''))).toEqual(newest);
    expect(ids(await list(p.proposalId, 'sort=newest'))).toEqual(newest);
    expect(ids(await list(p.proposalId, 'sort=oldest'))).toEqual(oldest);
    const heaviest = await list(p.proposalId, 'sort=weight');
    expect(ids(heaviest)).toEqual(weight);
    expect(heaviest.items.map((v) => v.weight)).toEqual(['30', '30', '10', '5', '5', '5']);
    // pages of 4 and of 1 give the same sequence: no vote twice, none left out
    for (const [sort, expected] of [
      ['newest', newest],
      ['oldest', oldest],
      ['weight', weight],
    ] as const) {
      for (const limit of [1, 4]) {
        const paged = await allPages(p.proposalId, `sort=${sort}`, limit);
        expect([paged.total, paged.items.map((v) => v.voteId)], `${sort} by ${limit}`).toEqual([6, expected]);
      }
    }
  });
});

describe('choice', () => {
  it('single-choice: the votes for the option, matched ignoring case, with their total and pages', async () => {
    const p = await weightedProposal([1, 2, 3, 4, 5]);
    const [a, b, c, d, e] = p.wallets;
    for (const [w, choice] of [
      [a, 'For'],
      [b, 'Against'],
      [c, 'For'],
      [d, 'Abstain'],
      [e, 'For'],
    ] as const) {
      await vote(p, w!, choice);
      clock.advance(1_000);
    }
    const forVotes = await list(p.proposalId, 'choice=for');
    expect(forVotes.pagination).toEqual({ total: 3, page: 1, limit: 50, totalPages: 1, nextCursor: null });
    expect(forVotes.items.map((v) => v.voterAddress)).toEqual([e!.address, c!.address, a!.address]);
    const heavy = await list(
      p.proposalId,
      `choice=${encodeURIComponent(' FOR ')}&sort=weight&limit=2&page=2`,
    );
    expect(heavy.items.map((v) => v.weight)).toEqual(['1']);
    expect(heavy.pagination).toEqual({ total: 3, page: 2, limit: 2, totalPages: 2, nextCursor: null });
    expect((await list(p.proposalId, 'choice=Abstain')).items.map((v) => v.voterAddress)).toEqual([
      d!.address,
    ]);
    // an option nobody chose
    const none = await weightedProposal([1]);
    expect((await list(none.proposalId, 'choice=Against')).pagination.total).toBe(0);
  });

  it('approval, weighted, quadratic and ranked-choice: votes that approve, give points to, or rank the option', async () => {
    const options = ['Oak', 'Elm', 'Ash'];
    const cases: { system: string; ballots: unknown[]; matches: Record<string, number[]> }[] = [
      {
        system: 'approval',
        ballots: [['Oak', 'Elm'], ['Elm'], [], ['Ash', 'Oak']],
        matches: { Oak: [0, 3], Elm: [0, 1], Ash: [3] },
      },
      {
        system: 'weighted',
        ballots: [{ Oak: 1, Elm: 0 }, { Elm: 0.25 }, { Ash: 2, Oak: 1e-7 }],
        matches: { Oak: [0, 2], Elm: [1], Ash: [2] },
      },
      {
        system: 'quadratic',
        ballots: [{ Oak: 3 }, { Elm: 1, Ash: 1 }],
        matches: { Oak: [0], Elm: [1], Ash: [1] },
      },
      {
        system: 'ranked-choice',
        ballots: [['Oak', 'Elm'], ['Ash'], ['Elm', 'Ash', 'Oak']],
        matches: { Oak: [0, 2], Elm: [0, 2], Ash: [1, 2] },
      },
    ];
    for (const { system, ballots, matches } of cases) {
      const p = await weightedProposal(
        ballots.map(() => 1),
        { votingSystem: system, votingOptions: options },
      );
      const ids: string[] = [];
      for (const [i, ballot] of ballots.entries()) {
        ids.push((await vote(p, p.wallets[i]!, ballot)).voteId);
        clock.advance(1_000);
      }
      for (const [option, which] of Object.entries(matches)) {
        const got = await list(p.proposalId, `choice=${option.toLowerCase()}&sort=oldest`);
        expect(
          got.items.map((v) => v.voteId),
          `${system} ${option}`,
        ).toEqual(which.map((i) => ids[i]));
        expect(got.pagination.total, `${system} ${option}`).toBe(which.length);
      }
    }
  });
});

describe('bad input', () => {
  it('an unknown sort, an empty or unknown choice, or another parameter is a 400 on its field', async () => {
    const p = await weightedProposal([1]);
    const cases: [string, string, string][] = [
      ['sort=heaviest', 'sort', 'invalid_value'],
      ['sort=WEIGHT', 'sort', 'invalid_value'],
      ['choice=%20%20', 'choice', 'too_small'],
      [`choice=${'x'.repeat(101)}`, 'choice', 'too_big'],
      ['choice=Maybe', 'choice', 'unknown_option'],
      ['order=weight', '', 'unrecognized_keys'],
    ];
    for (const [query, path, code] of cases) {
      const res = await api.get(`/votes/proposal/${p.proposalId}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ code: 'BAD_REQUEST' });
      expect(res.body.issues, query).toEqual(
        expect.arrayContaining([expect.objectContaining({ path, code })]),
      );
      expect(JSON.stringify(res.body)).not.toContain('stack');
    }
    expect((await api.get(`/votes/proposal/${p.proposalId}?sort=heaviest`)).body.reason).toBe(
      'VALIDATION_FAILED',
    );
    // an empty value is the parameter left out, as for every query parameter
    expect((await list(p.proposalId, 'choice=&sort=')).pagination.total).toBe(0);
    // an unknown proposal stays a 404, a malformed id a 400
    const none = await api.get('/votes/proposal/00000000-0000-4000-8000-000000000000?choice=For&sort=weight');
    expect(none.status).toBe(404);
    expect((await api.get('/votes/proposal/nope?sort=weight')).status).toBe(400);
  });

  it('a choice filter while the results are hidden is a 409 RESULTS_HIDDEN; sorting still works', async () => {
    const p = await weightedProposal([2, 1], {}, { resultsVisibility: 'after-end' });
    await vote(p, p.wallets[0]!, 'For');
    const hidden = await api.get(`/votes/proposal/${p.proposalId}?choice=For`);
    expect([hidden.status, hidden.body.code, hidden.body.reason]).toEqual([
      409,
      'CONFLICT',
      'RESULTS_HIDDEN',
    ]);
    const sorted = await list(p.proposalId, 'sort=weight');
    expect(sorted.items.map((v) => [v.weight, v.choice])).toEqual([['2', null]]);
  });
});

describe('OpenAPI', () => {
  it('documents choice and sort on GET /votes/proposal/{proposalId}', async () => {
    const doc = (await api.get('/api/docs-json')).body;
    const params = doc.paths['/votes/proposal/{proposalId}'].get.parameters as {
      name: string;
      in: string;
      schema: { enum?: string[]; $ref?: string };
    }[];
    const byName = Object.fromEntries(params.map((q) => [q.name, q]));
    expect(byName.choice?.in).toBe('query');
    expect(byName.sort?.in).toBe('query');
    const sortSchema = byName.sort!.schema.$ref
      ? doc.components.schemas[byName.sort!.schema.$ref.split('/').pop()!]
      : byName.sort!.schema;
    expect(sortSchema.enum).toEqual(['newest', 'oldest', 'weight']);
  });
});
