import { expect, test } from '@playwright/test';
import { type ActiveUser, memberUserByApi, restClient, useSession } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * The discussion under a proposal (docs/discussion.md): a member posts a comment and a reply on the
 * proposal page and sees them; a second page open on the same proposal sees both arrive live.
 */
const SLOW = { timeout: 20_000 };

let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let owner: ActiveUser;
let member: ActiveUser;
let proposalId: string;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser);
  api = restClient(product.apiUrl);
  [owner, member] = await Promise.all([
    memberUserByApi(product.apiUrl, product.webUrl, 'talk-owner'),
    memberUserByApi(product.apiUrl, product.webUrl, 'talk-member'),
  ]);
  const dao = await api.call<{ daoId: string }>('POST', '/daos', {
    body: { name: 'Talk Club', ownerAddress: owner.wallet.address, votingRules: { threshold: 50 } },
    token: owner.token,
  });
  await api.call('POST', `/daos/${dao.daoId}/members`, {
    body: { memberAddress: member.wallet.address },
    token: owner.token,
  });
  const p = await api.call<{ proposalId: string }>('POST', '/proposals', {
    body: {
      daoId: dao.daoId,
      title: 'Plant the orchard',
      creatorAddress: owner.wallet.address,
      votingDurationHours: 2,
    },
    token: owner.token,
  });
  proposalId = p.proposalId;
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

test('a member posts a comment and a reply; another page sees both live', async () => {
  const watcher = await product.browser.newPage();
  await useSession(watcher, product.webUrl, owner.token);
  await watcher.goto(`${product.webUrl}/proposals/${proposalId}`);
  const watched = watcher.getByTestId('comments');
  await expect(watched.getByText('No comments yet.')).toBeVisible(SLOW);
  // the watcher's stream is live before anything is posted
  await expect(watcher.getByTestId('live-indicator')).toHaveAttribute('data-live', 'true', SLOW);

  const page = await product.browser.newPage();
  await useSession(page, product.webUrl, member.token);
  await page.goto(`${product.webUrl}/proposals/${proposalId}`);
  const thread = page.getByTestId('comments');
  const form = thread.getByTestId('comment-form');
  await form.getByRole('textbox', { name: 'Add a comment (markdown)' }).fill('Apples **and** pears');
  await form.getByRole('button', { name: 'Post comment' }).click();
  const first = thread.getByTestId('comment').filter({ hasText: 'Apples and pears' });
  await expect(first).toHaveCount(1, SLOW);
  await expect(first.locator('strong', { hasText: 'and' })).toBeVisible();

  await first.getByRole('button', { name: 'Reply', exact: true }).click();
  const reply = first.getByTestId('reply-form');
  await reply.getByRole('textbox', { name: 'Your reply (markdown)' }).fill('Plums too');
  await reply.getByRole('button', { name: 'Post reply' }).click();
  await expect(thread.getByTestId('comment').filter({ hasText: 'Plums too' })).toHaveCount(1, SLOW);
  await expect(thread.getByRole('heading', { name: 'Discussion (2)' })).toBeVisible();

  // the other page, never reloaded, shows both from the live stream
  await expect(watched.getByTestId('comment').filter({ hasText: 'Apples and pears' })).toHaveCount(1, SLOW);
  await expect(watched.getByTestId('comment').filter({ hasText: 'Plums too' })).toHaveCount(1, SLOW);
  await expect(watched.getByRole('heading', { name: 'Discussion (2)' })).toBeVisible();
  await page.close();
  await watcher.close();
});
