import { expect, test } from '@playwright/test';
import { type Anvil, clients, delegate, deployToken, mint, startAnvil } from '@plenum/contracts';
import { parseEther, parseUnits } from 'viem';
import { textOf } from './flows';
import { type ActiveUser, confirmVote, memberUserByApi, restClient, useSession } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * A token-weighted DAO against a real chain: anvil (from @plenum/contracts) with an ERC20Votes token, the
 * product reading it through CHAIN_RPC_URLS. The DAO form looks the token up, the proposal page shows the
 * snapshot block and each wallet's voting power at it, and a member's delegated votes weigh its vote.
 */

const SLOW = { timeout: 20_000 };
const HUNDRED = parseUnits('100', 18).toString();

let anvil: Anvil;
let token: `0x${string}`;
let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let owner: ActiveUser;
let voter: ActiveUser;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  anvil = await startAnvil();
  token = await deployToken(anvil, { standard: 'erc20-votes', name: 'Plenum Votes', symbol: 'VOT' });
  product = await startProduct(browser, { CHAIN_RPC_URLS: `${anvil.chainId}=${anvil.url}` });
  api = restClient(product.apiUrl);
  [owner, voter] = await Promise.all([
    memberUserByApi(product.apiUrl, product.webUrl, 'token-owner'),
    memberUserByApi(product.apiUrl, product.webUrl, 'token-voter'),
  ]);
  // the voter's linked wallet holds 100 VOT and delegates them to itself (it pays gas: fund it);
  // the owner holds 250 VOT but never delegates, so it has no votes at any block
  await clients(anvil).test.setBalance({ address: voter.wallet.address, value: parseEther('1') });
  await mint(anvil, token, voter.wallet.address, BigInt(HUNDRED));
  await mint(anvil, token, owner.wallet.address, parseUnits('250', 18));
  await delegate(anvil, token, { from: voter.wallet, to: voter.wallet.address });
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
  await anvil?.stop();
});

test.describe('a token-weighted DAO on a local chain', () => {
  test.describe.configure({ mode: 'serial' });
  let daoId: string;
  let proposalId: string;

  test('creates the DAO with a looked-up token, adds a member and submits a proposal', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/daos/new`);
    await page.getByLabel('Name', { exact: true }).fill('Guild of Voters');
    await page.getByLabel('Owner address').selectOption(owner.wallet.address);
    await page.getByLabel('Threshold (%)').fill('50');
    await page.getByLabel('Minimum voting period (hours)').fill('0');

    const section = page.getByTestId('token-section');
    await section.getByLabel('Chain ID').fill(String(anvil.chainId));
    // a wallet is no token: the lookup says so in words
    await section.getByLabel('Token address').fill(owner.wallet.address);
    await section.getByRole('button', { name: 'Look up' }).click();
    const lookupError = await textOf(page, 'token-lookup-error');
    expect(lookupError).toContain('No token of that standard answers at this address');
    expect(lookupError).not.toMatch(/TOKEN_NOT_FOUND|[{}]/);

    await section.getByLabel('Token address').fill(token);
    await section.getByLabel('ERC-20 Votes (delegated votes)').check();
    await section.getByRole('button', { name: 'Look up' }).click();
    const info = page.getByTestId('token-info');
    await expect(info).toHaveAttribute('data-symbol', 'VOT', SLOW);
    await expect(info).toHaveAttribute('data-decimals', '18');
    await expect(info).toContainText('VOT');
    // the manual token-weighted switch gives way to the token
    await expect(page.getByTestId('token-weighted-note')).toBeVisible();
    await expect(section.getByLabel('Members', { exact: true })).toBeChecked();

    await page.getByRole('button', { name: 'Create DAO' }).click();
    await page.waitForURL(/\/daos\/[0-9a-f-]{36}$/);
    daoId = page.url().split('/').pop()!;
    const daoToken = page.getByTestId('dao-token');
    await expect(daoToken).toContainText('VOT', SLOW);
    await expect(daoToken).toContainText(`chain ${anvil.chainId}`);
    await expect(daoToken).toContainText('delegated votes');
    await expect(daoToken).toHaveAttribute('data-address', new RegExp(token, 'i'));
    await expect(page.getByTestId('dao-membership')).toHaveAttribute('data-membership', 'members');
    const dao = await api.call<{
      votingRules: { tokenWeighted: boolean; token: { symbol: string; decimals: number; standard: string } };
    }>('GET', `/daos/${daoId}`);
    expect(dao.votingRules.tokenWeighted).toBe(true);
    expect(dao.votingRules.token).toMatchObject({ symbol: 'VOT', decimals: 18, standard: 'erc20-votes' });

    await page.getByLabel('New member address').fill(voter.wallet.address);
    await page.getByRole('button', { name: 'Add member' }).click();
    expect(await textOf(page, 'members-notice')).toContain('now has 2 members');
    await expect(page.getByTestId('members').locator(`[data-address="${voter.wallet.address}"]`)).toHaveCount(
      1,
      SLOW,
    );
    // balances come from the chain: no editor for them
    await expect(page.getByTestId('members-from-chain')).toContainText('VOT');
    expect(await page.getByRole('button', { name: 'Save balance' }).count()).toBe(0);

    await page.getByText('New proposal', { exact: true }).click();
    await page.getByLabel('Title', { exact: true }).fill('Fund the archive');
    await page.getByLabel('Voting duration (hours)').fill('1');
    await page.getByRole('button', { name: 'Submit proposal' }).click();
    await page.waitForURL(/\/proposals\/[0-9a-f-]{36}$/);
    proposalId = page.url().split('/').pop()!;
    await expect(page.getByTestId('proposal-status')).toHaveText('Active', SLOW);
    await page.close();
  });

  test('shows the snapshot block and each wallet’s voting power at it, then counts the delegated votes', async () => {
    const proposal = await api.call<{
      snapshotBlock: { number: string } | null;
      snapshotError: string | null;
    }>('GET', `/proposals/${proposalId}`);
    expect(proposal.snapshotError).toBeNull();
    const block = proposal.snapshotBlock?.number;
    expect(block).toMatch(/^\d+$/);

    // the owner holds VOT but delegated none: it sees why it cannot vote, and its wallet is not on the ballot
    const ownerPage = await product.browser.newPage();
    await useSession(ownerPage, product.webUrl, owner.token);
    await ownerPage.goto(`${product.webUrl}/proposals/${proposalId}`);
    await expect(ownerPage.getByTestId('snapshot-block')).toHaveAttribute('data-block', block!, SLOW);
    const ownerPower = ownerPage.locator(
      `[data-testid="voting-power"][data-address="${owner.wallet.address}"]`,
    );
    await expect(ownerPower).toHaveAttribute('data-reason', 'NO_WEIGHT', SLOW);
    await expect(ownerPower).toContainText('no VOT votes delegated');
    // no wallet of the owner can vote: no ballot, an offer to connect another wallet
    await expect(ownerPage.getByTestId('no-ballot')).toBeVisible();
    await expect(ownerPage.getByTestId('vote-form')).toHaveCount(0);
    await ownerPage.close();

    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, voter.token);
    await page.goto(`${product.webUrl}/proposals/${proposalId}`);
    const snapshot = page.getByTestId('snapshot-block');
    await expect(snapshot).toHaveAttribute('data-block', block!, SLOW);
    await expect(snapshot).toContainText(`block ${block}`);
    const power = page.locator(`[data-testid="voting-power"][data-address="${voter.wallet.address}"]`);
    await expect(power).toHaveAttribute('data-eligible', 'true', SLOW);
    await expect(power).toHaveAttribute('data-weight', HUNDRED);
    await expect(power).toContainText(`Your voting power: 100 VOT at block ${block}`);

    const form = page.getByTestId('vote-form');
    await form.getByLabel('For', { exact: true }).check();
    await form.locator(`input[name="voteAs"][value="${voter.wallet.address}"]`).check();
    await form.getByRole('button', { name: 'Cast vote' }).click();
    await confirmVote(page);
    expect(await textOf(page, 'vote-cast')).toContain('“For” was counted with 100 VOT');
    const resultFor = page.getByTestId('result-For');
    await expect(resultFor).toHaveAttribute('data-weight', HUNDRED, SLOW);
    await expect(resultFor).toContainText('weight 100 VOT');
    await expect(power).toContainText('(you have voted)', SLOW);
    await expect(page.getByTestId('votes')).toContainText('weight 100 VOT', SLOW);

    const results = await api.call<{
      snapshotBlock: { number: string } | null;
      options: { option: string; weight: string }[];
    }>('GET', `/votes/proposal/${proposalId}/results`);
    expect(results.snapshotBlock?.number).toBe(block);
    expect(results.options.find((o) => o.option === 'For')?.weight).toBe(HUNDRED);
    await page.close();
  });

  test('says the holdings could not be read while the chain is down, then opens voting when it answers', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, voter.token);
    await anvil.pause();
    try {
      const late = await api.call<{ proposalId: string; status: string }>('POST', '/proposals', {
        body: { daoId, title: 'Mend the roof', creatorAddress: owner.wallet.address, votingDurationHours: 1 },
        token: owner.token,
      });
      expect(late.status).toBe('PENDING');
      await page.goto(`${product.webUrl}/proposals/${late.proposalId}`);
      expect(await textOf(page, 'snapshot-error')).toContain(
        'The token holdings could not be read yet; voting starts when the chain answers',
      );
      await expect(page.getByTestId('proposal-status')).toHaveText('Pending');
      expect(await page.getByTestId('vote-form').count()).toBe(0);
    } finally {
      await anvil.resume();
    }
    // the server retries (5 s, then doubling): the page follows without a reload
    await expect(page.getByTestId('proposal-status')).toHaveText('Active', { timeout: 60_000 });
    await expect(page.getByTestId('snapshot-error')).toHaveCount(0);
    await expect(page.getByTestId('snapshot-block')).toBeVisible(SLOW);
    const power = page.locator(`[data-testid="voting-power"][data-address="${voter.wallet.address}"]`);
    await expect(power).toContainText('Your voting power: 100 VOT at block', SLOW);
    await expect(page.getByTestId('vote-form')).toBeVisible();
    await page.close();
  });

  test('keeps the DAO form’s token section within a 375 px wide screen', async () => {
    const context = await product.browser.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/daos/new`);
    const section = page.getByTestId('token-section');
    await section.getByLabel('Chain ID').fill(String(anvil.chainId));
    await section.getByLabel('Token address').fill(token);
    await section.getByLabel('ERC-20 Votes (delegated votes)').check();
    await section.getByRole('button', { name: 'Look up' }).click();
    await expect(page.getByTestId('token-info')).toHaveAttribute('data-symbol', 'VOT', SLOW);
    await section.getByLabel('Anyone holding the token').check();
    await section.getByLabel('Minimum weight (tokens)').fill('2.5');
    const [scrollWidth, clientWidth] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    const box = await section.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    for (const input of await section.locator('input').all()) {
      const b = await input.boundingBox();
      if (b) expect(b.x + b.width).toBeLessThanOrEqual(375);
    }

    // the minimum is typed in whole tokens and sent in base units; the DAO says it is open to holders
    await page.getByLabel('Name', { exact: true }).fill('Open Guild');
    await page.getByLabel('Owner address').selectOption(owner.wallet.address);
    await page.getByLabel('Threshold (%)').fill('50');
    await page.getByRole('button', { name: 'Create DAO' }).click();
    await page.waitForURL(/\/daos\/[0-9a-f-]{36}$/);
    const membership = page.getByTestId('dao-membership');
    await expect(membership).toHaveAttribute('data-membership', 'token-holders', SLOW);
    await expect(membership).toContainText('Open to token holders');
    await expect(membership).toContainText('at least 2.5 VOT');
    const dao = await api.call<{ votingRules: { membership: string; minWeight: string } }>(
      'GET',
      `/daos/${page.url().split('/').pop()}`,
    );
    expect(dao.votingRules).toMatchObject({
      membership: 'token-holders',
      minWeight: parseUnits('2.5', 18).toString(),
    });
    await context.close();
  });
});
