import { expect, type Page, test } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  type ActiveUser,
  confirmVote,
  controlWallet,
  memberUserByApi,
  restClient,
  useSession,
} from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';
import { injectWallet } from './wallet';

/**
 * The vote box before and after a vote: whether I can vote and why not before any signature, "Your
 * vote: …" instead of the ballot once I have voted, and the confirm step with the wallet's failures.
 */
const SLOW = { timeout: 20_000 };

let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let owner: ActiveUser;
let member: ActiveUser;
let outsider: ActiveUser;
let daoId: string;
const signerKey = generatePrivateKey();
const signer = privateKeyToAccount(signerKey);

test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser);
  api = restClient(product.apiUrl);
  [owner, member, outsider] = await Promise.all([
    memberUserByApi(product.apiUrl, product.webUrl, 'vb-owner'),
    memberUserByApi(product.apiUrl, product.webUrl, 'vb-member'),
    memberUserByApi(product.apiUrl, product.webUrl, 'vb-outsider'),
  ]);
  daoId = (
    await api.call<{ daoId: string }>('POST', '/daos', {
      body: { name: 'Orchard Circle', ownerAddress: owner.wallet.address, votingRules: { threshold: 50 } },
      token: owner.token,
    })
  ).daoId;
  for (const address of [member.wallet.address, signer.address])
    await api.call('POST', `/daos/${daoId}/members`, {
      body: { memberAddress: address },
      token: owner.token,
    });
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

async function proposal(title: string, extra: Record<string, unknown> = {}, dao = daoId) {
  const p = await api.call<{ proposalId: string }>('POST', '/proposals', {
    body: { daoId: dao, title, creatorAddress: owner.wallet.address, votingDurationHours: 1, ...extra },
    token: owner.token,
  });
  return p.proposalId;
}

async function open(user: ActiveUser | null, proposalId: string, page?: Page) {
  const p = page ?? (await product.browser.newPage());
  await useSession(p, product.webUrl, user?.token ?? null);
  await p.goto(`${product.webUrl}/proposals/${proposalId}`);
  return p;
}

const eligibility = (page: Page) => page.getByTestId('eligibility');

test.describe('“Can I vote?” before any signature', () => {
  test('a member sees their voting power above the ballot', async () => {
    const page = await open(member, await proposal('Plant pear trees'));
    await expect(eligibility(page)).toContainText('Your voting power: weight 1', SLOW);
    await expect(page.getByTestId('vote-form')).toBeVisible();
    await page.close();
  });

  test('a signed-in non-member sees why, and no ballot', async () => {
    const page = await open(outsider, await proposal('Build a shed'));
    await expect(eligibility(page)).toContainText('This address is not a member of the DAO.', SLOW);
    await expect(page.getByTestId('no-ballot')).toContainText('there is no ballot');
    await expect(page.getByRole('button', { name: 'Connect wallet' })).toBeVisible();
    await expect(page.getByTestId('vote-form')).toHaveCount(0);
    await page.close();
  });

  test('a member who joined after voting started sees why, and no ballot', async () => {
    const id = await proposal('Mow the meadow');
    const late = await memberUserByApi(product.apiUrl, product.webUrl, 'vb-late');
    await api.call('POST', `/daos/${daoId}/members`, {
      body: { memberAddress: late.wallet.address },
      token: owner.token,
    });
    const page = await open(late, id);
    await expect(eligibility(page)).toContainText('joined the DAO after voting started', SLOW);
    await expect(page.getByTestId('no-ballot')).toBeVisible();
    await expect(page.getByTestId('vote-form')).toHaveCount(0);
    await page.close();
  });

  test('a member with no weight in a token-weighted DAO sees why, and no ballot', async () => {
    const weighted = await api.call<{ daoId: string }>('POST', '/daos', {
      body: {
        name: 'Weighted Orchard',
        ownerAddress: owner.wallet.address,
        votingRules: { threshold: 50, tokenWeighted: true },
      },
      token: owner.token,
    });
    await api.call('POST', `/daos/${weighted.daoId}/members`, {
      body: { memberAddress: member.wallet.address },
      token: owner.token,
    });
    await api.call('PUT', `/daos/${weighted.daoId}/members/${owner.wallet.address}`, {
      body: { tokenBalance: '5' },
      token: owner.token,
    });
    const page = await open(member, await proposal('Sell the apples', {}, weighted.daoId));
    await expect(eligibility(page)).toContainText('no voting weight', SLOW);
    await expect(page.getByTestId('vote-form')).toHaveCount(0);
    await page.close();
  });

  test('before voting starts the box says when it starts; a visitor connects a wallet to see theirs', async () => {
    const later = await proposal('Autumn fair', {
      startTime: new Date(Date.now() + 3 * 3_600_000).toISOString(),
    });
    const page = await open(member, later);
    await expect(eligibility(page)).toContainText(
      /Voting has not started yet\.\s*Starts in (2 h 5\d min|3 h)/,
      SLOW,
    );
    await expect(page.getByTestId('vote-form')).toHaveCount(0);
    await page.close();

    // signed out: nothing to judge until a wallet connects; then the ballot for that eligible wallet
    const context = await product.browser.newContext();
    const visitor = await context.newPage();
    await injectWallet(visitor, { privateKey: signerKey });
    await open(null, await proposal('Winter pruning'), visitor);
    await expect(visitor.getByTestId('vote-form')).toHaveCount(0);
    await visitor.getByRole('button', { name: 'Connect wallet' }).click();
    await expect(eligibility(visitor)).toContainText('Your voting power: weight 1', SLOW);
    await expect(
      visitor.getByTestId('vote-form').getByRole('radio', { name: /Sign with my browser wallet/ }),
    ).toBeChecked();
    await context.close();
  });
});

test.describe('after voting', () => {
  test('the ballot gives way to “Your vote: …”, at once and after a reload', async () => {
    const page = await open(member, await proposal('Fence the orchard'));
    const form = page.getByTestId('vote-form');
    await form.getByLabel('Against', { exact: true }).check();
    await form.getByRole('button', { name: 'Cast vote' }).click();
    await confirmVote(page);
    await expect(page.getByTestId('your-vote')).toContainText('Your vote: Against', SLOW);
    await expect(page.getByTestId('vote-form')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Change vote' })).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('your-vote')).toContainText('Your vote: Against', SLOW);
    await expect(eligibility(page)).toContainText('(you have voted)', SLOW);
    await expect(page.getByTestId('vote-form')).toHaveCount(0);
    await page.close();
  });

  test('where the DAO allows it, “Change vote” brings the ballot back', async () => {
    const dao = await api.call<{ daoId: string }>('POST', '/daos', {
      body: {
        name: 'Changeable Orchard',
        ownerAddress: owner.wallet.address,
        votingRules: { threshold: 50, allowVoteChange: true },
      },
      token: owner.token,
    });
    await api.call('POST', `/daos/${dao.daoId}/members`, {
      body: { memberAddress: member.wallet.address },
      token: owner.token,
    });
    const id = await proposal('Cider or juice', {}, dao.daoId);
    await api.call('POST', '/votes', {
      body: { proposalId: id, daoId: dao.daoId, voterAddress: member.wallet.address, choice: 'For' },
      token: member.token,
    });
    const page = await open(member, id);
    await expect(page.getByTestId('your-vote')).toContainText('Your vote: For', SLOW);
    await expect(page.getByTestId('vote-form')).toHaveCount(0);
    await page.getByRole('button', { name: 'Change vote' }).click();
    const form = page.getByTestId('vote-form');
    await form.getByLabel('Against', { exact: true }).check();
    await form.getByRole('button', { name: 'Cast vote' }).click();
    await confirmVote(page);
    await expect(page.getByTestId('your-vote')).toContainText('Your vote: Against', SLOW);
    await expect(page.getByTestId('result-For')).toHaveAttribute('data-weight', '0', SLOW);
    await page.close();
  });
});

test.describe('the confirm step', () => {
  test('names the choice and the weight; cancelling sends nothing', async () => {
    const id = await proposal('New ladders');
    const page = await open(member, id);
    const form = page.getByTestId('vote-form');
    await form.getByLabel('For', { exact: true }).check();
    await form.getByRole('button', { name: 'Cast vote' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your vote' });
    await expect(dialog.getByTestId('confirm-choice')).toHaveText('For');
    await expect(dialog.getByTestId('confirm-weight')).toHaveText('1');
    // the session casts it: nothing to sign
    await expect(dialog.getByTestId('off-chain')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    const results = await api.call<{ totalVotes: number }>('GET', `/votes/proposal/${id}/results`);
    expect(results.totalVotes).toBe(0);
    await page.close();
  });

  test('the wallet: off-chain signature, then rejected, timed out and signed, each with a retry', async () => {
    const id = await proposal('Beehives');
    const context = await product.browser.newContext();
    const page = await context.newPage();
    await injectWallet(page, { privateKey: signerKey });
    const setMode = await controlWallet(page);
    await page.clock.install();
    await open(null, id, page);
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    const form = page.getByTestId('vote-form');
    await form.getByLabel('For', { exact: true }).check();
    await form.getByRole('button', { name: 'Cast vote' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your vote' });
    await expect(dialog.getByTestId('off-chain')).toContainText('Off-chain signature, no gas');
    await expect(dialog.getByTestId('confirm-weight')).toHaveText('1', SLOW);

    await setMode('reject');
    await dialog.getByRole('button', { name: 'Confirm vote' }).click();
    await expect(dialog.getByTestId('vote-failed')).toContainText(
      'You rejected the signature in your wallet',
      SLOW,
    );

    await setMode('hang');
    await dialog.getByRole('button', { name: 'Try again' }).click();
    await expect(dialog.getByTestId('vote-step')).toContainText('Confirm in your wallet', SLOW);
    await page.clock.fastForward('02:01');
    await expect(dialog.getByTestId('vote-failed')).toContainText('did not answer within 2 minutes', SLOW);

    // the page's clock is 2 minutes ahead now: the wallet's clock agrees with the server's again before
    // it signs, as a real one would
    await page.clock.setSystemTime(Date.now());
    await setMode('sign');
    await dialog.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByTestId('your-vote')).toContainText('Your vote: For', SLOW);
    await expect(page.getByTestId('your-vote')).toContainText('signed with EIP-712');
    await expect(page.getByTestId('result-For')).toHaveAttribute('data-weight', '1', SLOW);
    await context.close();
  });

  test('a vote the server refuses says why, in the dialog, with a retry', async () => {
    const id = await proposal('Compost heap');
    const page = await open(member, id);
    const form = page.getByTestId('vote-form');
    await form.getByLabel('For', { exact: true }).check();
    // removed from the DAO while the page is open: the server refuses the vote
    await api.call('DELETE', `/daos/${daoId}/members/${member.wallet.address}`, {
      token: owner.token,
      expect: 204,
    });
    try {
      await form.getByRole('button', { name: 'Cast vote' }).click();
      const dialog = await confirmVote(page);
      const failed = dialog.getByTestId('vote-failed');
      // the voting power's reason (docs/governance.md, "Voting power"), as a sentence
      await expect(failed).toContainText(
        'The vote was refused: Only members can submit proposals or vote',
        SLOW,
      );
      await expect(failed).not.toContainText(/NOT_A_MEMBER|[{}]/);
      await expect(dialog.getByRole('button', { name: 'Try again' })).toBeVisible();
    } finally {
      await api.call('POST', `/daos/${daoId}/members`, {
        body: { memberAddress: member.wallet.address },
        token: owner.token,
      });
    }
    await page.close();
  });
});
