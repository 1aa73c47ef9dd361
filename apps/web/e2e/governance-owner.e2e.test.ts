import { expect, type Page, test } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { textOf } from './flows';
import { type ActiveUser, confirmVote, memberUserByApi, restClient, useSession } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';

/** polls get time: two cores are shared with other builds and test runs */
const SLOW = { timeout: 20_000 };
const BIG = '1000000000000000000000'; // 10^21: beyond a JS number's exact range

let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let owner: ActiveUser;
let member: ActiveUser;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser);
  api = restClient(product.apiUrl);
  [owner, member] = await Promise.all([
    memberUserByApi(product.apiUrl, product.webUrl, 'wowner'),
    memberUserByApi(product.apiUrl, product.webUrl, 'wmember'),
  ]);
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

const members = (page: Page) => page.getByTestId('members');

/** A datetime-local value `hours` from now, in the browser's own time zone. */
const localInput = (page: Page, hours: number) =>
  page.evaluate((h) => {
    const d = new Date(Date.now() + h * 3_600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  }, hours);

test.describe('governance in the browser: the owner manages a token-weighted DAO', () => {
  // each test goes on from the DAO and proposal the ones before it made
  test.describe.configure({ mode: 'serial' });

  let daoId: string;
  let openProposalId: string;

  test('creates a token-weighted DAO with a quorum and manages members and exact balances', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/daos/new`);
    await page.getByLabel('Name', { exact: true }).fill('Token Guild');
    await page.getByLabel('Threshold (%)').fill('66.5');
    await page.getByLabel('Quorum (%)').fill('20');
    await page.getByLabel(/^Token-weighted voting/).check();
    await page.getByRole('button', { name: 'Create DAO' }).click();
    await page.waitForURL(/\/daos\/[0-9a-f-]{36}$/);
    daoId = page.url().split('/').pop()!;
    const rules = await textOf(page, 'dao-rules');
    expect(rules).toContain('66.5 % of decided weight');
    expect(rules).toContain('20 % of the electorate');
    expect(rules).toContain('token balance');

    // a malformed address is refused by the shared schema before anything is sent
    await page.getByLabel('New member address').fill('0x123');
    await page.getByRole('button', { name: 'Add member' }).click();
    expect(await page.locator('[data-field-errors="memberAddress"]').textContent()).toContain(
      '0x followed by 40 hex',
    );
    await page.getByLabel('New member address').fill(member.wallet.address);
    await page.getByRole('button', { name: 'Add member' }).click();
    await expect(members(page).locator(`[data-address="${member.wallet.address}"]`)).toHaveCount(1, SLOW);
    // the same address again: the API's 409 as a sentence
    await page.getByLabel('New member address').fill(member.wallet.address.toLowerCase());
    await page.getByRole('button', { name: 'Add member' }).click();
    expect(await textOf(page, 'form-error')).toContain('That address is already a member of this DAO.');

    const balanceForm = page.getByRole('form', { name: `Token balance of ${member.wallet.address}` });
    await balanceForm.getByLabel('Token balance').fill(BIG);
    await balanceForm.getByRole('button', { name: 'Save balance' }).click();
    await expect(members(page)).toContainText('balance 1,000,000,000,000,000,000,000', SLOW);
    const ownerForm = page.getByRole('form', { name: `Token balance of ${owner.wallet.address}` });
    await ownerForm.getByLabel('Token balance').fill('-5');
    await ownerForm.getByRole('button', { name: 'Save balance' }).click();
    await page.getByText('must be a non-negative integer as a decimal string').waitFor();
    await ownerForm.getByLabel('Token balance').fill('3');
    await ownerForm.getByRole('button', { name: 'Save balance' }).click();
    await expect(members(page)).toContainText('balance 3', SLOW);
    const listed = await api.call<{ items: { memberAddress: string; tokenBalance: string }[] }>(
      'GET',
      `/daos/${daoId}/members`,
    );
    expect(listed.items.find((m) => m.memberAddress === member.wallet.address)?.tokenBalance).toBe(BIG);

    // a third member, removed again; the owner has no remove button
    const extra = privateKeyToAccount(generatePrivateKey()).address;
    await page.getByLabel('New member address').fill(extra);
    await page.getByRole('button', { name: 'Add member' }).click();
    await expect(members(page).locator(`[data-address="${extra}"]`)).toHaveCount(1, SLOW);
    await page.getByRole('button', { name: `Remove ${extra}` }).click();
    // removal asks first and says what it does
    const ask = page.getByRole('alertdialog', { name: 'Remove this member?' });
    await expect(ask.getByTestId('remove-consequences')).toContainText('no longer count', SLOW);
    await ask.getByRole('button', { name: 'Remove member' }).click();
    expect(await textOf(page, 'members-notice')).toContain(`Removed ${extra}`);
    await expect(members(page).locator(`[data-address="${extra}"]`)).toHaveCount(0, SLOW);
    expect(await page.getByRole('button', { name: `Remove ${owner.wallet.address}` }).count()).toBe(0);
    await page.close();
  });

  test('counts weighted votes exactly and shows the quorum and threshold', async () => {
    const p = await api.call<{ proposalId: string }>('POST', '/proposals', {
      body: {
        daoId,
        title: 'Mint more tokens',
        creatorAddress: owner.wallet.address,
        votingDurationHours: 1,
      },
      token: owner.token,
    });
    await api.call('POST', '/votes', {
      body: { proposalId: p.proposalId, daoId, voterAddress: member.wallet.address, choice: 'Against' },
      token: member.token,
    });
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/proposals/${p.proposalId}`);
    const form = page.getByTestId('vote-form');
    await form.getByLabel('For', { exact: true }).check();
    await form.getByRole('button', { name: 'Cast vote' }).click();
    await confirmVote(page);
    expect(await textOf(page, 'vote-cast')).toContain('counted with weight 3');
    await expect(page.getByTestId('result-Against')).toContainText(
      'weight 1,000,000,000,000,000,000,000',
      SLOW,
    );
    expect(await textOf(page, 'turnout')).toContain(
      'weight 1,000,000,000,000,000,000,003 of 1,000,000,000,000,000,000,003',
    );
    expect(await textOf(page, 'quorum')).toContain('Quorum of 20 % reached.');
    // one verdict, under the criteria (no longer appended to the quorum line)
    expect(await textOf(page, 'verdict')).toBe('Not passing so far. “Against” has more weight than “For”.');
    expect(await page.getByTestId('results').textContent()).toContain('Threshold 66.5 %');
    await page.close();
  });

  test('submits a proposal that starts later: upcoming, no vote form yet', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/daos/${daoId}`);
    await page.getByText('New proposal', { exact: true }).click();
    await page.getByLabel('Title', { exact: true }).fill('Hold a summer fair');
    await page.getByLabel('Voting duration (hours)').fill('2');
    await page.getByLabel('Start time (optional)').fill(await localInput(page, -1));
    await page.getByRole('button', { name: 'Submit proposal' }).click();
    expect(await page.locator('[data-field-errors="startTime"]').textContent()).toContain(
      'must be in the future',
    );
    await page.getByLabel('Start time (optional)').fill(await localInput(page, 3));
    await page.getByRole('button', { name: 'Submit proposal' }).click();
    await page.waitForURL(/\/proposals\/[0-9a-f-]{36}$/);
    expect(await textOf(page, 'proposal-status')).toBe('Pending');
    expect(await textOf(page, 'countdown')).toMatch(/Starts in (2 h 5\d min|3 h)/);
    await page.getByText('Voting has not started yet.').waitFor();
    expect(await page.getByTestId('vote-form').count()).toBe(0);

    await page.goto(`${product.webUrl}/daos/${daoId}`);
    await page.getByRole('tab', { name: 'Upcoming' }).click();
    await expect(page.getByTestId('proposals')).toContainText('Hold a summer fair', SLOW);
    await page.close();
  });

  test('deactivates and reactivates the DAO; an inactive DAO refuses new proposals', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/daos/${daoId}`);
    await page.getByRole('button', { name: 'Deactivate DAO' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Deactivate Token Guild?' });
    await expect(ask.getByTestId('deactivate-consequences')).toContainText(
      'no new members, no new proposals and no votes',
    );
    await ask.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await expect(page.getByTestId('dao-status')).toHaveText('Inactive', SLOW);
    await page.getByText('This DAO is inactive: it takes no new proposals.').waitFor();
    expect(await page.getByLabel('New member address').count()).toBe(0);
    await api.call('POST', '/proposals', {
      body: { daoId, title: 'Too late', creatorAddress: owner.wallet.address, votingDurationHours: 1 },
      token: owner.token,
      expect: 409,
    });
    // a member who is not the owner sees no status control
    const other = await product.browser.newPage();
    await useSession(other, product.webUrl, member.token);
    await other.goto(`${product.webUrl}/daos/${daoId}`);
    await other.getByTestId('dao-rules').waitFor();
    expect(await other.getByRole('button', { name: 'Activate DAO' }).count()).toBe(0);
    await other.close();

    await page.getByRole('button', { name: 'Activate DAO' }).click();
    await expect(page.getByTestId('dao-status')).toHaveText('Active', SLOW);
    await page.getByText('New proposal', { exact: true }).waitFor();
    await page.close();
  });

  test('lists DAOs page by page, and a signed-out visitor sees polled results and only wallet signing', async () => {
    await Promise.all(
      Array.from({ length: 21 }, (_, i) =>
        api.call('POST', '/daos', {
          body: {
            name: `Paged DAO ${String(i).padStart(2, '0')}`,
            ownerAddress: owner.wallet.address,
            votingRules: { threshold: 50 },
          },
          token: owner.token,
        }),
      ),
    );
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/daos`);
    await expect(page.getByTestId('dao-list')).toContainText('Paged DAO', SLOW);
    expect(await page.getByTestId('dao-list').locator('li').count()).toBe(20);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    await expect(page.getByTestId('dao-list').locator('li')).toHaveCount(2, SLOW);

    const p = await api.call<{ proposalId: string }>('POST', '/proposals', {
      body: {
        daoId,
        title: 'Open to all eyes',
        creatorAddress: owner.wallet.address,
        votingDurationHours: 1,
      },
      token: owner.token,
    });
    openProposalId = p.proposalId;
    await page.goto(`${product.webUrl}/proposals/${p.proposalId}`);
    expect(await textOf(page, 'live-indicator')).toBe('Refreshing every few seconds');
    // nothing to judge eligibility by until a wallet connects: no ballot, an offer to connect
    await expect(page.getByTestId('no-ballot')).toContainText('Connect your browser wallet');
    await expect(page.getByRole('button', { name: 'Connect wallet' })).toBeVisible();
    await expect(page.getByTestId('vote-form')).toHaveCount(0);
    await api.call('POST', '/votes', {
      body: { proposalId: p.proposalId, daoId, voterAddress: member.wallet.address, choice: 'For' },
      token: member.token,
    });
    await expect(page.getByTestId('result-For')).toHaveAttribute('data-weight', BIG, SLOW);
    await page.close();
  });
  test('casts a vote from the keyboard alone', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/proposals/${openProposalId}`);
    const form = page.getByTestId('vote-form');
    await form.getByLabel('For', { exact: true }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown'); // within the radio group: Against
    await page.keyboard.press('Tab');
    await page.keyboard.type('Chosen without a mouse.');
    await page.keyboard.press('Tab'); // the "vote as" group: my wallet, preselected
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe(
      owner.wallet.address,
    );
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    // the confirm step opens with its confirm button focused
    const dialog = page.getByRole('dialog', { name: 'Confirm your vote' });
    await expect(dialog.getByRole('button', { name: 'Confirm vote' })).toBeFocused();
    await page.keyboard.press('Enter');
    expect(await textOf(page, 'vote-cast')).toContain('Your vote for “Against” was counted with weight 3');
    await expect(page.getByTestId('votes')).toContainText('Chosen without a mouse.', SLOW);
    await page.close();
  });
});

test.describe('results hidden until the end', () => {
  test('a DAO created with hidden results shows the count but not the choices; the voter sees their own', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/daos/new`);
    await page.getByLabel('Name', { exact: true }).fill('Shielded DAO');
    await page.getByLabel('Owner address').selectOption(owner.wallet.address);
    await page.getByLabel('Threshold (%)').fill('50');
    await page.getByLabel('Hide results until voting ends').check();
    await page.getByRole('button', { name: 'Create DAO' }).click();
    await page.waitForURL(/\/daos\/[0-9a-f-]{36}$/);
    const hiddenDaoId = page.url().split('/').pop()!;
    await api.call('POST', `/daos/${hiddenDaoId}/members`, {
      body: { memberAddress: member.wallet.address },
      token: owner.token,
    });
    const p = await api.call<{ proposalId: string }>('POST', '/proposals', {
      body: {
        daoId: hiddenDaoId,
        title: 'Quiet vote',
        creatorAddress: owner.wallet.address,
        votingDurationHours: 1,
      },
      token: owner.token,
    });
    await api.call('POST', '/votes', {
      body: {
        proposalId: p.proposalId,
        daoId: hiddenDaoId,
        voterAddress: member.wallet.address,
        choice: 'Against',
      },
      token: member.token,
    });

    // the owner (not the voter) sees that one vote came, not what it chose
    await page.goto(`${product.webUrl}/proposals/${p.proposalId}`);
    expect(await textOf(page, 'results-hidden')).toContain('Results are hidden until voting ends');
    expect(await textOf(page, 'turnout')).toContain('1 of 2 voters');
    await expect(page.getByTestId('result-Against')).toHaveCount(0);
    await expect(page.getByTestId('votes')).toContainText('hidden until the end', SLOW);
    await expect(page.getByTestId('votes')).not.toContainText('Against');

    // the voter sees their own choice
    const voterPage = await product.browser.newPage();
    await useSession(voterPage, product.webUrl, member.token);
    await voterPage.goto(`${product.webUrl}/proposals/${p.proposalId}`);
    await expect(voterPage.getByTestId('my-votes')).toContainText('Against', SLOW);
    await voterPage.close();
    await page.close();
  });
});

test.describe('changing a vote', () => {
  test('in a DAO that allows it, a member changes their vote and the results follow', async () => {
    const dao = await api.call<{ daoId: string }>('POST', '/daos', {
      body: {
        name: 'Second thoughts',
        ownerAddress: owner.wallet.address,
        votingRules: { threshold: 50, allowVoteChange: true },
      },
      token: owner.token,
    });
    await api.call('POST', `/daos/${dao.daoId}/members`, {
      body: { memberAddress: member.wallet.address },
      token: owner.token,
    });
    const p = await api.call<{ proposalId: string }>('POST', '/proposals', {
      body: {
        daoId: dao.daoId,
        title: 'Paint it blue',
        creatorAddress: owner.wallet.address,
        votingDurationHours: 1,
      },
      token: owner.token,
    });
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, member.token);
    await page.goto(`${product.webUrl}/proposals/${p.proposalId}`);
    const cast = async (choice: string) => {
      const form = page.getByTestId('vote-form');
      await form.getByLabel(choice, { exact: true }).check();
      await form.locator(`input[name="voteAs"][value="${member.wallet.address}"]`).check();
      await form.getByRole('button', { name: 'Cast vote' }).click();
      await confirmVote(page);
      // the notice of the first vote may still show: wait for the one of this vote
      await expect(page.getByTestId('vote-cast')).toContainText(`“${choice}” was counted`, SLOW);
    };
    await cast('For');
    await expect(page.getByTestId('result-For')).toHaveAttribute('data-weight', '1', SLOW);
    await expect(page.getByTestId('your-vote')).toContainText('Your vote: For', SLOW);
    await page.getByRole('button', { name: 'Change vote' }).click();
    expect(await textOf(page, 'vote-change-allowed')).toContain('change your vote until voting ends');
    await cast('Against');
    await expect(page.getByTestId('result-Against')).toHaveAttribute('data-weight', '1', SLOW);
    await expect(page.getByTestId('result-For')).toHaveAttribute('data-weight', '0', SLOW);
    await expect(page.getByTestId('my-votes')).toContainText('Against', SLOW);
    await expect(page.getByTestId('my-votes')).not.toContainText('For');
    await page.close();
  });
});
