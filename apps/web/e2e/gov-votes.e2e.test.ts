import { expect, type Page, test } from '@playwright/test';
import { type ActiveUser, memberUserByApi, restClient } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * The proposal page's votes and results: the Votes tab filters by choice and sorts by weight through the
 * API (docs/governance.md, "Listing the votes"), the Results card draws the tally as a chart with its
 * percentages, voters with a public profile appear by name (looked up in one batch), and nothing
 * overflows at 375 px.
 */
const SLOW = { timeout: 20_000 };

let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let owner: ActiveUser;
let voters: ActiveUser[];
let voterIds: string[];
let proposalId: string;
// a token-weighted DAO: For 30 + 25 = 55 of 100, Against 45
const BALANCES = ['30', '45', '25'];
const CHOICES = ['For', 'Against', 'For'];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser);
  api = restClient(product.apiUrl);
  const users = await Promise.all(
    ['gv-owner', 'gv-first', 'gv-second', 'gv-third'].map((tag) =>
      memberUserByApi(product.apiUrl, product.webUrl, tag),
    ),
  );
  owner = users[0]!;
  voters = users.slice(1);
  voterIds = await Promise.all(
    voters.map(
      async (v) => (await api.call<{ user: { id: string } }>('GET', '/auth/me', { token: v.token })).user.id,
    ),
  );
  const { daoId } = await api.call<{ daoId: string }>('POST', '/daos', {
    body: {
      name: 'Weighted Wharf',
      ownerAddress: owner.wallet.address,
      votingRules: { threshold: 50, tokenWeighted: true },
    },
    token: owner.token,
  });
  for (const [i, v] of voters.entries()) {
    await api.call('POST', `/daos/${daoId}/members`, {
      body: { memberAddress: v.wallet.address },
      token: owner.token,
    });
    await api.call('PUT', `/daos/${daoId}/members/${v.wallet.address}`, {
      body: { tokenBalance: BALANCES[i] },
      token: owner.token,
    });
  }
  proposalId = (
    await api.call<{ proposalId: string }>('POST', '/proposals', {
      body: {
        daoId,
        title: 'Dredge the harbour',
        creatorAddress: owner.wallet.address,
        votingDurationHours: 48,
      },
      token: owner.token,
    })
  ).proposalId;
  for (const [i, v] of voters.entries()) {
    await api.call('POST', '/votes', {
      body: { proposalId, daoId, voterAddress: v.wallet.address, choice: CHOICES[i] },
      token: v.token,
    });
  }
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

const votes = (page: Page) => page.getByTestId('votes').getByTestId('vote');

async function openVotes(page: Page) {
  await page.goto(`${product.webUrl}/proposals/${proposalId}`);
  await page.getByTestId('votes-tab').click();
  await expect(votes(page)).toHaveCount(3, SLOW);
}

async function noSidewaysScroll(page: Page) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

test('the Votes tab filters by choice and sorts by weight', async () => {
  const page = await product.browser.newPage();
  await openVotes(page);
  const weights = () =>
    votes(page)
      .locator('[data-weight]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-weight')));

  await page.getByLabel('Choice').selectOption('For');
  await expect(page.getByTestId('votes-filtered')).toHaveText('2 votes for “For”', SLOW);
  await expect(votes(page)).toHaveCount(2);
  await expect(votes(page).getByTestId('vote-choice')).toHaveText(['For', 'For']);
  await expect(votes(page).locator(`[data-address="${voters[1]!.wallet.address}"]`)).toHaveCount(0);

  await page.getByLabel('Sort').selectOption({ label: 'Highest weight' });
  await expect.poll(weights, SLOW).toEqual(['30', '25']);

  // the filtered, sorted tab is in the address: the link opens the same view for someone else
  await expect(page).toHaveURL(/[?&]tab=votes/);
  const link = page.url();
  expect(new URL(link).searchParams.get('choice')).toBe('For');
  expect(new URL(link).searchParams.get('sort')).toBe('weight');
  const other = await product.browser.newPage();
  await other.goto(link);
  await expect(other.getByTestId('votes-filtered')).toHaveText('2 votes for “For”', SLOW);
  await expect(other.getByLabel('Sort')).toHaveValue('weight');
  await expect
    .poll(() =>
      votes(other)
        .locator('[data-weight]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-weight'))),
    )
    .toEqual(['30', '25']);
  await other.close();

  await page.getByLabel('Choice').selectOption({ label: 'All choices' });
  await expect.poll(weights, SLOW).toEqual(['45', '30', '25']);
  await expect(votes(page).getByTestId('vote-choice')).toHaveText(['Against', 'For', 'For']);

  await page.getByLabel('Sort').selectOption({ label: 'Oldest first' });
  await expect.poll(weights, SLOW).toEqual(['30', '45', '25']);
  await page.close();
});

test('the Results card draws the tally as a chart with its percentages, also as text', async () => {
  const page = await product.browser.newPage();
  await page.goto(`${product.webUrl}/proposals/${proposalId}`);
  const chart = page.getByTestId('results-chart');
  // one image however far the lazy chart has loaded: its svg is hidden from the accessibility tree
  await expect(chart.locator('svg').getByText('55 %')).toBeVisible(SLOW);
  await expect(chart.getByRole('img')).toHaveCount(1);
  await expect(chart.getByRole('img')).toHaveAttribute(
    'aria-label',
    /For 55 %, Against 45 %, Abstain 0 %/,
    SLOW,
  );
  // the bars' percentages are drawn in the chart itself
  await expect(chart.locator('svg').getByText('55 %')).toBeVisible(SLOW);
  await expect(chart.locator('svg').getByText('45 %')).toBeVisible();
  await expect(page.getByTestId('result-For')).toHaveAttribute('data-percent', '55');
  await expect(page.getByTestId('result-For')).toContainText('55 %');
  await page.close();
});

test('voters with a public profile appear by name, linking to it, the address still there; one lookup', async () => {
  const page = await product.browser.newPage();
  // the browser's own lookups: with server rendering the names arrive with the page and none is made
  await page.context().addCookies([{ name: 'plenum-ssr', value: '0', url: product.webUrl }]);
  const lookups: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('users.byAddress')) lookups.push(decodeURIComponent(r.url()).toLowerCase());
  });
  await openVotes(page);
  const first = votes(page).locator(`[data-address="${voters[0]!.wallet.address}"]`);
  await expect(first.getByTestId('address-name')).toHaveText('Ada Tester gv-first', SLOW);
  await expect(first.getByRole('link')).toHaveAttribute('href', `/users/${voterIds[0]}`);
  await expect(first.getByTestId('address-name')).toHaveAttribute('title', voters[0]!.wallet.address);
  await expect(first).toContainText(voters[0]!.wallet.address.slice(0, 6));
  await expect(first.getByRole('button', { name: /Copy address/ })).toBeVisible();
  // the author and the three voters: the voters' addresses went together in one request
  const together = lookups.filter((u) => voters.every((v) => u.includes(v.wallet.address.toLowerCase())));
  expect(together.length).toBe(1);
  expect(lookups.length).toBeLessThanOrEqual(2);
  await page.close();
});

test('at 375 px the chart, the controls and the votes fit the width', async () => {
  const context = await product.browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await page.goto(`${product.webUrl}/proposals/${proposalId}`);
  await expect(page.getByTestId('results-chart').locator('svg').getByText('55 %')).toBeVisible(SLOW);
  await noSidewaysScroll(page);
  await page.getByTestId('votes-tab').click();
  await expect(votes(page)).toHaveCount(3, SLOW);
  await expect(votes(page).first().getByTestId('address-name')).toBeVisible(SLOW);
  await noSidewaysScroll(page);
  await context.close();
});
