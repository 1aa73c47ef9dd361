import { expect, type Page, test } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
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

/**
 * Delegation in the web app (docs/governance.md, "Delegation", "In the web app"): the Delegates page
 * (a statement written there, a delegation made from a row with the session and by a wallet's EIP-712
 * signature, both removed again), the DAO page's "You delegate to …", and the proposal page's lines for
 * a delegator whose delegate voted, before and after it votes itself, with the tally moving live.
 * Everything but the steps under test is set up over the API.
 */
const SLOW = { timeout: 20_000 };

let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let owner: ActiveUser;
let a: ActiveUser;
let b: ActiveUser;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser);
  api = restClient(product.apiUrl);
  [owner, a, b] = (await Promise.all(
    ['dg-owner', 'dg-a', 'dg-b'].map((tag) => memberUserByApi(product.apiUrl, product.webUrl, tag)),
  )) as [ActiveUser, ActiveUser, ActiveUser];
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

/** an equal-weight DAO with delegation on and these members besides the owner */
async function delegationDao(name: string, members: string[]) {
  const { daoId } = await api.call<{ daoId: string }>('POST', '/daos', {
    body: { name, ownerAddress: owner.wallet.address, votingRules: { threshold: 50, delegation: true } },
    token: owner.token,
  });
  for (const memberAddress of members)
    await api.call('POST', `/daos/${daoId}/members`, { body: { memberAddress }, token: owner.token });
  return daoId;
}

/** a page of its own browser context, signed in as `user` (or signed out) */
async function pageAs(user: ActiveUser | null, opts: { locale?: 'de' } = {}): Promise<Page> {
  const context = await product.browser.newContext();
  if (opts.locale)
    await context.addCookies([{ name: 'NEXT_LOCALE', value: opts.locale, url: product.webUrl }]);
  const page = await context.newPage();
  await useSession(page, product.webUrl, user?.token ?? null);
  return page;
}

const rowOf = (page: Page, address: string) =>
  page.getByTestId('delegates').locator(`[data-testid="delegate-row"][data-address="${address}"]`);

test('the Delegates page: a statement, a delegation with the session, the DAO page, removal; in German', async () => {
  const daoId = await delegationDao('Delegating Docks', [a.wallet.address, b.wallet.address]);
  const delegates = `${product.webUrl}/daos/${daoId}/delegates`;

  // nobody delegates yet: the page explains what delegation is
  const pageA = await pageAs(a);
  await pageA.goto(delegates);
  await expect(pageA.getByTestId('delegates-empty')).toContainText('No delegates yet', SLOW);

  // A stands as a delegate with a statement (markdown, counted as typed)
  const statement = pageA.getByTestId('my-statement');
  await statement.getByRole('button', { name: 'Write your statement' }).click();
  await statement.getByLabel('Statement', { exact: true }).fill('I vote for **lower fees**.');
  await expect(statement.getByTestId('statement-count')).toHaveText('26 / 10,000 characters');
  await statement.getByRole('button', { name: 'Save statement' }).click();
  const rowA = rowOf(pageA, a.wallet.address);
  await expect(rowA.getByTestId('delegate-statement').locator('strong')).toHaveText('lower fees', SLOW);
  await expect(rowA.getByTestId('delegate-button')).toHaveCount(0);

  // B delegates to A from A's row, with the session
  const pageB = await pageAs(b);
  await pageB.goto(delegates);
  const row = rowOf(pageB, a.wallet.address);
  await row.getByTestId('delegate-button').click();
  const dialog = pageB.getByRole('alertdialog', { name: 'Delegate your vote' });
  await expect(dialog.getByRole('radio', { name: /0x/ })).toBeChecked();
  await dialog.getByRole('button', { name: 'Delegate', exact: true }).click();
  await expect(dialog).toHaveCount(0, SLOW);
  await expect(row.getByTestId('your-delegate')).toHaveText('Your delegate', SLOW);
  await expect(row).toHaveAttribute('data-rank', '1');
  await expect(row.getByTestId('delegator-count')).toHaveAttribute('data-count', '1');
  await expect(row.getByTestId('delegated-weight')).toHaveAttribute('data-weight', '1');
  await expect(row.getByTestId('delegated-weight')).toContainText('1 (1 delegator)');
  await expect(row.getByTestId('delegate-statement').locator('strong')).toHaveText('lower fees');

  // B's DAO page says whom B delegates to, and B removes it there (asked first)
  await pageB.goto(`${product.webUrl}/daos/${daoId}`);
  const block = pageB.getByTestId('delegation-block');
  const mine = block.getByTestId('you-delegate');
  await expect(mine).toContainText('You delegate to', SLOW);
  await expect(mine).toHaveAttribute('data-delegate', a.wallet.address);
  await expect(pageB.getByTestId('rules-summary')).toContainText('Delegation');
  await mine.getByTestId('remove-delegation').click();
  const confirm = pageB.getByRole('alertdialog', { name: 'Remove your delegation?' });
  await confirm.getByRole('button', { name: 'Remove delegation' }).click();
  await expect(block.getByTestId('you-vote-yourself')).toContainText('You vote yourself.', SLOW);
  await expect(block.getByTestId('you-delegate')).toHaveCount(0);

  // in German, signed out: A still stands, now without delegators
  const german = await pageAs(null, { locale: 'de' });
  await german.goto(delegates);
  await expect(german.getByRole('heading', { level: 1 })).toHaveText('Delegierte', SLOW);
  await expect(rowOf(german, a.wallet.address).getByTestId('delegated-weight')).toContainText(
    'keine Delegierenden',
  );
  for (const p of [pageA, pageB, german]) await p.context().close();
});

test('a delegation signed by the browser wallet, without an account, to a typed address, and its signed removal', async () => {
  const key = generatePrivateKey();
  const walletOnly = privateKeyToAccount(key).address;
  const daoId = await delegationDao('Signing Sluice', [a.wallet.address, walletOnly]);

  const context = await product.browser.newContext();
  const page = await context.newPage();
  await injectWallet(page, { privateKey: key });
  await page.goto(`${product.webUrl}/daos/${daoId}/delegates`);
  await page.getByTestId('delegate-sign-in').getByRole('button', { name: 'Connect wallet' }).click();
  // A is not listed yet (no statement, no delegators): the wallet delegates to A's address typed in
  await expect(page.getByTestId('delegates-empty')).toBeVisible(SLOW);
  const byAddress = page.getByTestId('delegate-to-address');
  const field = byAddress.getByLabel('Delegate to any address');
  await field.fill('0x12');
  await byAddress.getByRole('button', { name: 'Delegate…' }).click();
  await expect(byAddress).toContainText('Enter an address');
  await field.fill(a.wallet.address.toLowerCase());
  await byAddress.getByRole('button', { name: 'Delegate…' }).click();
  const row = rowOf(page, a.wallet.address);
  const dialog = page.getByRole('alertdialog', { name: 'Delegate your vote' });
  await expect(dialog.getByRole('radio', { name: /Sign with your browser wallet/ })).toBeChecked();
  await expect(dialog.getByTestId('off-chain')).toContainText('no gas');
  await dialog.getByRole('button', { name: 'Delegate', exact: true }).click();
  await expect(row.getByTestId('your-delegate')).toBeVisible(SLOW);
  await expect(row.getByTestId('delegator-count')).toHaveAttribute('data-count', '1');
  const stored = await api.call<{ delegate: { delegateAddress: string } | null }>(
    'GET',
    `/daos/${daoId}/delegation/${walletOnly}`,
  );
  expect(stored.delegate?.delegateAddress).toBe(a.wallet.address);

  await row.getByTestId('remove-delegation').click();
  await page
    .getByRole('alertdialog', { name: 'Remove your delegation?' })
    .getByRole('button', { name: 'Remove delegation' })
    .click();
  // A had nothing but that delegation: without it (no statement, no delegators) A is listed no more
  await expect(page.getByTestId('delegates-empty')).toBeVisible(SLOW);
  await expect(row).toHaveCount(0);
  const gone = await api.call<{ delegate: unknown }>('GET', `/daos/${daoId}/delegation/${walletOnly}`);
  expect(gone.delegate).toBeNull();
  await context.close();
});

test('the proposal page: my delegate voted with my weight; I vote myself and the tally moves live', async () => {
  const daoId = await delegationDao('Override Oasthouse', [a.wallet.address, b.wallet.address]);
  // B delegates to A before the proposal starts: the electorate freezes it
  await api.call('PUT', `/daos/${daoId}/delegation`, {
    body: { delegatorAddress: b.wallet.address, delegateAddress: a.wallet.address },
    token: b.token,
  });
  const { proposalId } = await api.call<{ proposalId: string }>('POST', '/proposals', {
    body: { daoId, title: 'Open on Sundays', creatorAddress: owner.wallet.address, votingDurationHours: 24 },
    token: owner.token,
  });

  // B's page is open before A votes: the line and the tally follow A's vote live
  const page = await pageAs(b);
  await page.goto(`${product.webUrl}/proposals/${proposalId}`);
  const line = page.getByTestId('delegation-line');
  await expect(line).toHaveAttribute('data-kind', 'delegateNotVoted', SLOW);
  await expect(line).toContainText('has not voted yet; your weight goes with their vote');
  await expect(line.locator(`[data-address="${a.wallet.address}"]`)).toHaveCount(1);
  const sameDocument = await markDocument(page);
  await api.call('POST', '/votes', {
    body: { proposalId, daoId, voterAddress: a.wallet.address, choice: 'For' },
    token: a.token,
  });
  await expect(line).toHaveAttribute('data-kind', 'delegateVoted', SLOW);
  await expect(line).toContainText('voted For with your weight; vote yourself to override.');
  await expect(page.getByTestId('result-For')).toHaveAttribute('data-weight', '2', SLOW);

  const form = page.getByTestId('vote-form');
  await form.getByLabel('Against', { exact: true }).check();
  await form.getByRole('button', { name: 'Cast vote' }).click();
  await confirmVote(page);
  await expect(line).toHaveAttribute('data-kind', 'votedMyself', SLOW);
  await expect(line).toContainText('You voted yourself: your weight counts for your own choice');
  await expect(page.getByTestId('result-For')).toHaveAttribute('data-weight', '1', SLOW);
  await expect(page.getByTestId('result-Against')).toHaveAttribute('data-weight', '1');
  expect(await sameDocument()).toBe(true);
  await page.context().close();
});
