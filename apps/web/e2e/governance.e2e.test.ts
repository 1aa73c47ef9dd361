import { expect, type Page, test } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { textOf } from './flows';
import {
  type ActiveUser,
  confirmVote,
  markDocument,
  memberUserByApi,
  restClient,
  useSession,
} from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';
import { injectWallet } from './wallet';

/** polls get time: two cores are shared with other builds and test runs */
const SLOW = { timeout: 20_000 };

let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let owner: ActiveUser;
let voter: ActiveUser;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser);
  api = restClient(product.apiUrl);
  [owner, voter] = await Promise.all([
    memberUserByApi(product.apiUrl, product.webUrl, 'owner'),
    memberUserByApi(product.apiUrl, product.webUrl, 'voter'),
  ]);
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

/** The app's WebSocket subscription is up (not the polling fallback). */
async function waitLive(page: Page) {
  await page.locator('[data-testid="live-indicator"][data-live="true"]').waitFor({ timeout: 20_000 });
}

test.describe('governance in the browser', () => {
  // each test goes on from the DAO and proposal the ones before it made
  test.describe.configure({ mode: 'serial' });

  let daoId: string;
  let proposalId: string;
  const signerKey = generatePrivateKey();
  const signer = privateKeyToAccount(signerKey);

  test('creates a DAO, adds a member and submits a proposal through the UI', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/daos/new`);
    // the shared schema refuses an empty name before anything is sent
    await page.getByRole('button', { name: 'Create DAO' }).click();
    expect(await textOf(page, 'form-error')).toContain('Please correct the highlighted fields');
    expect(await page.locator('[data-field-errors="name"]').textContent()).toContain('required');

    await page.getByLabel('Name', { exact: true }).fill('Harbour Co-op');
    await page.getByLabel('Description', { exact: true }).fill('Decides what the harbour buys.');
    await page.getByLabel('Owner address').selectOption(owner.wallet.address);
    await page.getByLabel('Threshold (%)').fill('50');
    await page.getByLabel('Minimum voting period (hours)').fill('0');
    await page.getByRole('button', { name: 'Create DAO' }).click();
    await page.waitForURL(/\/daos\/[0-9a-f-]{36}$/);
    daoId = page.url().split('/').pop()!;
    expect(await textOf(page, 'dao-status')).toBe('Active');
    await expect(
      page.getByTestId('dao-rules').locator(`[data-address="${owner.wallet.address}"]`),
    ).toBeVisible();

    await page.getByLabel('New member address').fill(voter.wallet.address);
    await page.getByRole('button', { name: 'Add member' }).click();
    expect(await textOf(page, 'members-notice')).toContain('now has 2 members');
    await expect(page.getByTestId('members').locator(`[data-address="${voter.wallet.address}"]`)).toHaveCount(
      1,
      SLOW,
    );
    // an address linked to nobody is a member too: it will vote with an EIP-712 signature
    await api.call('POST', `/daos/${daoId}/members`, {
      body: { memberAddress: signer.address },
      token: owner.token,
    });

    await page.getByText('New proposal', { exact: true }).click();
    await page.getByLabel('Title', { exact: true }).fill('Buy a new crane');
    await page.getByLabel('Option 3', { exact: true }).fill('Later');
    await page.getByRole('button', { name: 'Remove option 3' }).click();
    await page.getByRole('button', { name: 'Add option' }).click();
    await page.getByLabel('Option 3', { exact: true }).fill('Abstain');
    await page.getByLabel('Voting duration (hours)').fill('1');
    await page.getByLabel('Proposal data (JSON, optional)').fill('{"budget": ');
    await page.getByText('Not valid JSON').waitFor();
    await page.getByLabel('Proposal data (JSON, optional)').fill('{"budget": 120000}');
    await page.getByText('Valid JSON object').waitFor();
    await page.getByRole('button', { name: 'Submit proposal' }).click();
    await page.waitForURL(/\/proposals\/[0-9a-f-]{36}$/);
    proposalId = page.url().split('/').pop()!;
    expect(await textOf(page, 'proposal-status')).toBe('Active');
    const proposal = await api.call<{ votingOptions: string[]; proposalData: unknown }>(
      'GET',
      `/proposals/${proposalId}`,
    );
    expect(proposal.votingOptions).toEqual(['For', 'Against', 'Abstain']);
    expect(proposal.proposalData).toEqual({ budget: 120000 });
    await page.close();
  });

  test('votes with the session, then shows another voter’s REST vote live, without a reload', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/proposals/${proposalId}`);
    await waitLive(page);
    const sameDocument = await markDocument(page);

    const form = page.getByTestId('vote-form');
    await form.getByLabel('For', { exact: true }).check();
    await form.getByLabel('Comment (optional)').fill('We need it before winter.');
    await form.locator(`input[name="voteAs"][value="${owner.wallet.address}"]`).check();
    await form.getByRole('button', { name: 'Cast vote' }).click();
    await confirmVote(page);
    expect(await textOf(page, 'vote-cast')).toContain('“For” was counted with weight 1');
    await expect(page.getByTestId('result-For')).toHaveAttribute('data-weight', '1', SLOW);
    await expect(
      page.getByTestId('my-votes').locator(`[data-address="${owner.wallet.address}"]`),
    ).toBeVisible();
    // the ballot is gone: "Your vote" stands in its place
    await expect(page.getByTestId('your-vote')).toContainText('Your vote: For');
    await expect(page.getByTestId('vote-form')).toHaveCount(0);

    await api.call('POST', '/votes', {
      body: { proposalId, daoId, voterAddress: voter.wallet.address, choice: 'Against' },
      token: voter.token,
    });
    await expect(page.getByTestId('result-Against')).toHaveAttribute('data-weight', '1', SLOW);
    expect(await page.getByTestId('result-For').getAttribute('data-percent')).toBe('50');
    expect(await textOf(page, 'turnout')).toContain('2 of 3 voters');
    await expect(page.getByTestId('votes').locator(`[data-address="${voter.wallet.address}"]`)).toHaveCount(
      1,
      SLOW,
    );
    expect(await sameDocument()).toBe(true);
    await page.close();
  });

  test('votes signed with EIP-712 by the browser wallet, with no session', async () => {
    const context = await product.browser.newContext();
    const signed = await context.newPage();
    const wallet = await injectWallet(signed, { privateKey: signerKey });
    await signed.goto(`${product.webUrl}/proposals/${proposalId}`);
    await signed.getByRole('button', { name: 'Connect wallet' }).click();
    const form = signed.getByTestId('vote-form');
    await form.getByLabel('Abstain', { exact: true }).check();
    await form.getByLabel('Comment (optional)').fill('Signed by my wallet.');
    await form.getByRole('button', { name: 'Cast vote' }).click();
    await expect(signed.getByTestId('off-chain')).toContainText('Off-chain signature, no gas');
    await confirmVote(signed);
    expect(await textOf(signed, 'vote-cast')).toContain('“Abstain” was counted');
    expect(wallet.address).toBe(signer.address);
    await expect(signed.getByTestId('result-Abstain')).toHaveAttribute('data-weight', '1', SLOW);
    await expect(signed.getByTestId('votes')).toContainText('signed', SLOW);

    const vote = await api.call<{ signature: string | null; typedData: { domain: { name: string } } | null }>(
      'GET',
      `/votes/proposal/${proposalId}/voter/${signer.address}`,
    );
    expect(vote.signature).toMatch(/^0x[0-9a-f]+$/);
    expect(vote.typedData?.domain.name).toBe('Plenum');
    await context.close();
  });
  test('changes the status badge live when the proposal ends', async () => {
    const short = await api.call<{ proposalId: string }>('POST', '/proposals', {
      body: {
        daoId,
        title: 'Paint the pier',
        creatorAddress: owner.wallet.address,
        votingDurationHours: 0.005,
      },
      token: owner.token,
    });
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/proposals/${short.proposalId}`);
    expect(await textOf(page, 'proposal-status')).toBe('Active');
    await waitLive(page);
    const sameDocument = await markDocument(page);
    await api.call('POST', '/votes', {
      body: { proposalId: short.proposalId, daoId, voterAddress: voter.wallet.address, choice: 'For' },
      token: voter.token,
    });
    await expect(page.getByTestId('result-For')).toHaveAttribute('data-weight', '1', SLOW);
    await expect(page.getByTestId('proposal-status')).toHaveText('Passed', { timeout: 40_000 });
    expect(await textOf(page, 'outcome')).toContain('Passed: “For” won');
    expect(await textOf(page, 'countdown')).toContain('Ended');
    expect(await page.getByTestId('vote-form').count()).toBe(0);
    expect(await sameDocument()).toBe(true);
    await page.close();
  });

  test('says why a wallet that is not a member cannot vote, and shows it no ballot', async () => {
    const outsider = await memberUserByApi(product.apiUrl, product.webUrl, 'outsider');
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, outsider.token);
    await page.goto(`${product.webUrl}/proposals/${proposalId}`);
    const power = page.locator(`[data-testid="voting-power"][data-address="${outsider.wallet.address}"]`);
    await expect(power).toHaveAttribute('data-reason', 'NOT_A_MEMBER', SLOW);
    expect(await power.textContent()).toContain('This address is not a member of the DAO.');
    expect(await power.textContent()).not.toMatch(/[{}[\]]|NOT_A_MEMBER/);
    await expect(page.getByTestId('no-ballot')).toBeVisible();
    await expect(page.getByTestId('vote-form')).toHaveCount(0);
    await page.close();
  });

  test('shows my DAOs, DAOs I am a member of and active proposals with live tallies on the dashboard', async () => {
    const fresh = await api.call<{ proposalId: string }>('POST', '/proposals', {
      body: {
        daoId,
        title: 'Extend opening hours',
        creatorAddress: owner.wallet.address,
        votingDurationHours: 2,
      },
      token: owner.token,
    });
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, voter.token);
    await page.goto(`${product.webUrl}/dashboard`);
    await expect(page.getByTestId('member-daos')).toContainText('Harbour Co-op', SLOW);
    expect(await page.getByTestId('owned-daos').count()).toBe(0);
    const card = page.getByTestId(`active-${fresh.proposalId}`);
    await card.waitFor({ timeout: 20_000 });
    expect(await card.textContent()).toMatch(/Ends in (1 h 59 min|2 h)/);
    expect(await textOf(page, 'active-proposals')).toContain('Buy a new crane');
    await card.getByTestId('result-For').waitFor();
    const sameDocument = await markDocument(page);
    await api.call('POST', '/votes', {
      body: { proposalId: fresh.proposalId, daoId, voterAddress: owner.wallet.address, choice: 'For' },
      token: owner.token,
    });
    await expect(card.getByTestId('result-For')).toHaveAttribute('data-weight', '1', SLOW);
    expect(await sameDocument()).toBe(true);

    const own = await product.browser.newPage();
    await useSession(own, product.webUrl, owner.token);
    await own.goto(`${product.webUrl}/dashboard`);
    await expect(own.getByTestId('owned-daos')).toContainText('Harbour Co-op', SLOW);
    await own.close();
    await page.close();
  });

  test('moves between proposal tabs with the keyboard', async () => {
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/daos/${daoId}`);
    const active = page.getByRole('tab', { name: 'Active' });
    await active.focus();
    await expect(page.getByTestId('proposals')).toContainText('Buy a new crane', SLOW);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Passed' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Passed');
    await expect(page.getByTestId('proposals')).toContainText('Paint the pier', SLOW);
    await page.keyboard.press('End');
    expect(await page.getByRole('tab', { name: 'All' }).getAttribute('aria-selected')).toBe('true');
    await page.close();
  });

  test('fits a 375 px wide screen in dark mode on every governance page', async () => {
    const context = await product.browser.newContext({
      viewport: { width: 375, height: 740 },
      colorScheme: 'dark',
    });
    const page = await context.newPage();
    // a signed-in user's stored theme wins over the system's: this member chose dark
    const me = await api.call<{ user: { id: string } }>('GET', '/auth/me', { token: owner.token });
    await api.call('PUT', `/users/${me.user.id}/preferences`, {
      body: { theme: 'dark' },
      token: owner.token,
    });
    await useSession(page, product.webUrl, owner.token);
    for (const path of ['/dashboard', '/daos', '/daos/new', `/daos/${daoId}`, `/proposals/${proposalId}`]) {
      await page.goto(`${product.webUrl}${path}`);
      await page.locator('h1').waitFor();
      await page.waitForLoadState('networkidle');
      await expect
        .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor), { message: path })
        .toBe('rgb(17, 19, 24)');
      const [scrollWidth, clientWidth] = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        document.documentElement.clientWidth,
      ]);
      expect(scrollWidth, path).toBeLessThanOrEqual(clientWidth);
    }
    await context.close();
  });
});
