import { expect, test } from '@playwright/test';
import { type ActiveUser, memberUserByApi, restClient, useSession } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * The discussion under a proposal (docs/discussion.md): a member posts a comment and a reply on the
 * proposal page and sees them; a second page open on the same proposal sees both arrive live. The author
 * edits and deletes (asked first); the owner hides with a reason and shows again.
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

test('the author edits and deletes their comment; the owner hides another with a reason and shows it again', async () => {
  const post = (body: string) =>
    api.call<{ id: string }>('POST', `/proposals/${proposalId}/comments`, {
      body: { body },
      token: member.token,
    });
  const mine = await post('Cherries in spring');
  const other = await post('Sell the orchard for a car park');

  const page = await product.browser.newPage();
  await useSession(page, product.webUrl, member.token);
  await page.goto(`${product.webUrl}/proposals/${proposalId}`);
  const first = page.getByTestId('comments').locator(`[data-comment-id="${mine.id}"]`);
  await expect(first).toContainText('Cherries in spring', SLOW);

  // edit: marked edited
  await first.getByRole('button', { name: 'Edit', exact: true }).click();
  await first.getByRole('textbox', { name: 'Edit your comment' }).fill('Cherries in autumn');
  await first.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(first).toContainText('Cherries in autumn', SLOW);
  await expect(first.getByText('(edited)', { exact: true })).toBeVisible();

  // delete: asked first, then a tombstone keeps its place
  await first.getByRole('button', { name: 'Delete', exact: true }).click();
  const ask = page.getByRole('alertdialog', { name: 'Delete this comment?' });
  await ask.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(ask).toHaveCount(0);
  await expect(first.getByText('This comment was deleted.', { exact: true })).toBeVisible(SLOW);
  await expect(first).not.toContainText('Cherries');

  // the owner hides the other comment with a reason: the moderator still reads it
  const moderator = await product.browser.newPage();
  await useSession(moderator, product.webUrl, owner.token);
  await moderator.goto(`${product.webUrl}/proposals/${proposalId}`);
  const flagged = moderator.getByTestId('comments').locator(`[data-comment-id="${other.id}"]`);
  await expect(flagged).toContainText('car park', SLOW);
  await flagged.getByRole('button', { name: 'Hide', exact: true }).click();
  const why = flagged.locator('form');
  await why.getByRole('textbox', { name: 'Reason for hiding' }).fill('Off topic');
  await why.getByRole('button', { name: 'Hide', exact: true }).click();
  await expect(flagged.getByText('Hidden by a moderator: Off topic', { exact: true })).toBeVisible(SLOW);
  await expect(flagged).toContainText('car park');

  // the member sees that it was hidden, and why, but not its text
  await page.reload();
  const seen = page.getByTestId('comments').locator(`[data-comment-id="${other.id}"]`);
  await expect(seen.getByText('Hidden by a moderator: Off topic', { exact: true })).toBeVisible(SLOW);
  await expect(seen).not.toContainText('car park');

  // shown again
  await flagged.getByRole('button', { name: 'Unhide', exact: true }).click();
  await expect(flagged.getByRole('button', { name: 'Hide', exact: true })).toBeVisible(SLOW);
  await page.reload();
  await expect(seen).toContainText('car park', SLOW);
  await expect(seen.getByText(/Hidden by a moderator/)).toHaveCount(0);
  await moderator.close();
  await page.close();
});
