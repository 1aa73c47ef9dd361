import { expect, type Page, test } from '@playwright/test';
import { type ActiveUser, memberUserByApi, restClient, useSession } from './governance-api';
import { holdResultsReads, routeLive } from './live-race';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * A live tally against the races of a loaded machine, made to happen every time: the page's results
 * reads and its WebSocket are held back and let go in the orders that once lost a vote.
 */
const SLOW = { timeout: 20_000 };

let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let owner: ActiveUser;
let voter: ActiveUser;
let daoId: string;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser);
  api = restClient(product.apiUrl);
  [owner, voter] = await Promise.all([
    memberUserByApi(product.apiUrl, product.webUrl, 'tally-owner'),
    memberUserByApi(product.apiUrl, product.webUrl, 'tally-voter'),
  ]);
  const dao = await api.call<{ daoId: string }>('POST', '/daos', {
    body: { name: 'Tally Club', ownerAddress: owner.wallet.address, votingRules: { threshold: 50 } },
    token: owner.token,
  });
  daoId = dao.daoId;
  await api.call('POST', `/daos/${daoId}/members`, {
    body: { memberAddress: voter.wallet.address },
    token: owner.token,
  });
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

async function newProposal(title: string) {
  const p = await api.call<{ proposalId: string }>('POST', '/proposals', {
    body: { daoId, title, creatorAddress: owner.wallet.address, votingDurationHours: 2 },
    token: owner.token,
  });
  return p.proposalId;
}

const voteFor = (proposalId: string) =>
  api.call('POST', '/votes', {
    body: { proposalId, daoId, voterAddress: owner.wallet.address, choice: 'For' },
    token: owner.token,
  });

async function voterPage() {
  const page = await product.browser.newPage();
  await useSession(page, product.webUrl, voter.token);
  return page;
}

const forResult = (page: Page, proposalId: string) =>
  page.getByTestId(`active-${proposalId}`).getByTestId('result-For');

test.describe('live tallies on the dashboard', () => {
  test('show a vote committed after the first results read but before the subscription began', async () => {
    const proposalId = await newProposal('Mend the nets');
    const page = await voterPage();
    const reads = await holdResultsReads(page);
    const live = await routeLive(page);
    live.holdSubscriptions();
    await page.goto(`${product.webUrl}/dashboard`);
    // the first read has been answered (no vote yet) and the subscription is asked for, not begun
    await live.subscribed(proposalId);
    await expect.poll(() => reads.answeredSince(0, proposalId), SLOW).toBeGreaterThan(0);
    await voteFor(proposalId);
    // the server subscribes after the vote: no event will carry it
    live.releaseSubscriptions();
    await live.started(proposalId);
    await reads.release();
    await expect(forResult(page, proposalId)).toHaveAttribute('data-weight', '1', SLOW);
    await page.close();
  });

  test('keep a vote that came live when a results read answered before it arrives after it', async () => {
    const proposalId = await newProposal('Tar the hull');
    const page = await voterPage();
    const reads = await holdResultsReads(page);
    const live = await routeLive(page);
    await page.goto(`${product.webUrl}/dashboard`);
    const started = await live.started(proposalId);
    // the read sent once the subscription began was answered before the vote, and has not reached the page
    await expect.poll(() => reads.answeredSince(started, proposalId), SLOW).toBeGreaterThan(0);
    await voteFor(proposalId);
    await live.voteCast(proposalId);
    await expect(forResult(page, proposalId)).toHaveAttribute('data-weight', '1', SLOW);
    await reads.release();
    expect(await forResult(page, proposalId).getAttribute('data-weight')).toBe('1');
    await page.close();
  });
});
