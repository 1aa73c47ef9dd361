import { expect, type Page, test } from '@playwright/test';
import { type ActiveUser, markDocument, memberUserByApi, restClient, useSession } from './governance-api';
import { cutApi, expectOutage, expectRecovered, withoutServerData } from './outage';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * The governance pages' layout: the proposal page as Snapshot and Tally lay it out, proposal rows with
 * their tally, the new-proposal page, and destructive actions that ask first.
 */
const SLOW = { timeout: 20_000 };
const DESCRIPTION = [
  '## Budget',
  '',
  'We buy **one crane** for the harbour.',
  '',
  '| item | cost |',
  '|---|---|',
  '| crane | 120000 |',
  '',
  'Raw <b>markup</b> stays text.',
].join('\n');

let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let owner: ActiveUser;
let member: ActiveUser;
let outsider: ActiveUser;
let daoId: string;
let proposalId: string;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser);
  api = restClient(product.apiUrl);
  [owner, member, outsider] = await Promise.all([
    memberUserByApi(product.apiUrl, product.webUrl, 'gp-owner'),
    memberUserByApi(product.apiUrl, product.webUrl, 'gp-member'),
    memberUserByApi(product.apiUrl, product.webUrl, 'gp-outsider'),
  ]);
  daoId = (
    await api.call<{ daoId: string }>('POST', '/daos', {
      body: {
        name: 'Quay Council',
        ownerAddress: owner.wallet.address,
        votingRules: { threshold: 60, quorum: 50 },
      },
      token: owner.token,
    })
  ).daoId;
  await api.call('POST', `/daos/${daoId}/members`, {
    body: { memberAddress: member.wallet.address },
    token: owner.token,
  });
  proposalId = (
    await api.call<{ proposalId: string }>('POST', '/proposals', {
      body: {
        daoId,
        title: 'Buy a crane',
        description: DESCRIPTION,
        creatorAddress: owner.wallet.address,
        votingDurationHours: 48,
      },
      token: owner.token,
    })
  ).proposalId;
  await api.call('POST', '/votes', {
    body: { proposalId, daoId, voterAddress: member.wallet.address, choice: 'For' },
    token: member.token,
  });
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

test.describe('the proposal page', () => {
  test('renders the description as markdown, raw HTML as text, under Overview / Votes (count) tabs', async () => {
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/proposals/${proposalId}`);
    const md = page.getByTestId('markdown');
    await expect(md.getByRole('heading', { name: 'Budget' })).toBeVisible(SLOW);
    await expect(md.locator('strong')).toHaveText('one crane');
    await expect(md.getByRole('table')).toContainText('120000');
    await expect(md).toContainText('Raw <b>markup</b> stays text.');
    await expect(md.locator('b')).toHaveCount(0);
    // the author by <Address>: shortened, the full address kept in data-address
    await expect(page.locator(`[data-address="${owner.wallet.address}"]`).first()).toBeVisible();

    await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
    const votesTab = page.getByRole('tab', { name: 'Votes (1)' });
    await votesTab.click();
    await expect(page.getByTestId('votes')).toBeVisible();
    await expect(
      page.getByTestId('votes').locator(`[data-address="${member.wallet.address}"]`),
    ).toBeVisible();
    await expect(md).toBeHidden();
    await page.close();
  });

  test('puts Cast your vote → Results → Timeline in a side column at 1280 px, stacked at 375 px', async () => {
    for (const width of [1280, 375]) {
      const context = await product.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await useSession(page, product.webUrl, member.token);
      await page.goto(`${product.webUrl}/proposals/${proposalId}`);
      const side = page.getByRole('complementary', { name: 'Vote, results and timeline' });
      const headings = side.getByRole('heading', { level: 2 });
      await expect(headings).toHaveText(['Cast your vote', 'Results', 'Timeline'], SLOW);
      const tops = await Promise.all(
        ['Cast your vote', 'Results', 'Timeline'].map(
          async (name) => (await side.getByRole('heading', { name }).boundingBox())?.y ?? -1,
        ),
      );
      expect(tops[0]).toBeLessThan(tops[1]!);
      expect(tops[1]).toBeLessThan(tops[2]!);
      const body = await page.getByRole('article').boundingBox();
      const column = await side.boundingBox();
      if (width === 1280) {
        expect(column!.x).toBeGreaterThan(body!.x + body!.width - 1);
        // not sticky: the column is often taller than the window, so it scrolls with the page
        expect(await side.evaluate((el) => getComputedStyle(el).position)).toBe('static');
      } else {
        expect(column!.y).toBeGreaterThan(body!.y);
        const [scrollWidth, clientWidth] = await page.evaluate(() => [
          document.documentElement.scrollWidth,
          document.documentElement.clientWidth,
        ]);
        expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      }
      await context.close();
    }
  });

  test('shows the timeline Created → Start → End with time zones and a countdown to the end', async () => {
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/proposals/${proposalId}`);
    const timeline = page.getByTestId('timeline');
    await expect(timeline.locator('li')).toHaveCount(3, SLOW);
    await expect(timeline.getByTestId('timeline-created')).toContainText('Created');
    await expect(timeline.getByTestId('timeline-start')).toContainText('Voting starts');
    const end = timeline.getByTestId('timeline-end');
    await expect(end).toContainText('Voting ends');
    // one format with the zone, and a live countdown while the step is ahead
    await expect(end.locator('time')).toContainText(/(UTC|GMT)/);
    await expect(end).toContainText(/in (1 d 23 h|2 d)/, SLOW);
    await expect(timeline.getByTestId('timeline-created')).toHaveAttribute('data-done', 'true');
    await page.close();
  });

  test('shows results rows with their weight and %, and the support and participation criteria', async () => {
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/proposals/${proposalId}`);
    const forRow = page.getByTestId('result-For');
    await expect(forRow).toHaveAttribute('data-percent', '100', SLOW);
    await expect(forRow).toContainText('100 %');
    await expect(page.getByTestId('support')).toContainText('For 100 % of 60 % needed');
    await expect(page.getByTestId('turnout')).toContainText('1 of 2 voters');
    await expect(page.getByTestId('quorum')).toContainText('Quorum of 50 % reached.');
    await page.close();
  });
});

test.describe('the DAO page', () => {
  test('has a header with the rules summary and counts, and proposal rows with votes and the quorum tick', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, member.token);
    await page.goto(`${product.webUrl}/daos/${daoId}`);
    const summary = page.getByTestId('rules-summary');
    await expect(summary).toContainText('Threshold 60 %', SLOW);
    await expect(summary).toContainText('Quorum 50 %');
    await expect(summary).toContainText('One member, one vote');
    await expect(page.getByTestId('dao-counts')).toContainText('2 members');
    const row = page.getByTestId(`proposal-row-${proposalId}`);
    await expect(row.getByTestId('row-votes')).toHaveText('1 vote', SLOW);
    await expect(row.getByTestId('quorum-tick')).toHaveCount(1);
    await expect(row).toContainText(/Ends in (1 d 23 h|2 d)/);
    await page.getByRole('link', { name: 'New proposal' }).click();
    await page.waitForURL(/\/daos\/[0-9a-f-]{36}\/proposals\/new$/);
    await page.close();
  });

  test('asks before removing a member and says what happens; cancelling keeps them', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/daos/${daoId}`);
    await page.getByRole('button', { name: `Remove ${member.wallet.address}` }).click();
    const ask = page.getByRole('alertdialog', { name: 'Remove this member?' });
    await expect(ask.getByTestId('remove-consequences')).toContainText(
      'its votes on the proposals that are open now (1 open) no longer count',
      SLOW,
    );
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toHaveCount(0);
    const listed = await api.call<{ items: { memberAddress: string }[] }>('GET', `/daos/${daoId}/members`);
    expect(listed.items.map((m) => m.memberAddress)).toContain(member.wallet.address);
    await page.close();
  });
});

test.describe('the new-proposal page', () => {
  test('names what blocks a submission first: not a member, the DAO inactive', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, outsider.token);
    await page.goto(`${product.webUrl}/daos/${daoId}/proposals/new`);
    await expect(page.getByTestId('blocking')).toContainText('Only members can submit proposals', SLOW);
    await expect(page.getByRole('form', { name: 'New proposal' })).toHaveCount(0);

    const closed = await api.call<{ daoId: string }>('POST', '/daos', {
      body: { name: 'Closed Quay', ownerAddress: owner.wallet.address, votingRules: { threshold: 50 } },
      token: owner.token,
    });
    await api.call('POST', `/daos/${closed.daoId}/status`, {
      body: { status: 'INACTIVE' },
      token: owner.token,
      expect: 200,
    });
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/daos/${closed.daoId}/proposals/new`);
    await expect(page.getByTestId('blocking')).toContainText('This DAO is inactive', SLOW);
    await page.close();
  });

  test('previews the description and a live timeline from the duration', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, member.token);
    await page.goto(`${product.webUrl}/daos/${daoId}/proposals/new`);
    await page.getByLabel('Description', { exact: true }).fill('## Plan\n\n- **first** step');
    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = page.getByTestId('description-preview');
    await expect(preview.getByRole('heading', { name: 'Plan' })).toBeVisible();
    await expect(preview.locator('strong')).toHaveText('first');

    const timeline = page.getByTestId('timeline-preview');
    await page.getByLabel('Voting duration (hours)').fill('72');
    await expect(timeline.getByTestId('timeline-end')).toContainText(/in (2 d 23 h|3 d)/, SLOW);
    await page.getByLabel('Voting duration (hours)').fill('2');
    await expect(timeline.getByTestId('timeline-end')).toContainText(/in (1 h 59 min|2 h)/, SLOW);
    await page.close();
  });
});

test.describe('when the API is down', () => {
  // each main governance page: who looks at it, the empty states a failed read must not claim, and what
  // shows once the reads succeed again
  const PAGES = [
    {
      name: 'the dashboard',
      path: () => '/dashboard',
      as: () => owner.token,
      empty: ['You own no DAO yet', 'Link a wallet', 'not a member of any other DAO', 'No active proposals'],
      content: (page: Page) =>
        page.getByTestId('owned-daos').getByRole('link', { name: 'Quay Council', exact: true }),
    },
    {
      name: 'the DAO directory',
      path: () => '/daos',
      as: () => null,
      empty: ['No DAO yet'],
      content: (page: Page) =>
        page.getByTestId('dao-list').getByRole('link', { name: 'Quay Council', exact: true }),
    },
    {
      name: 'the DAO page',
      path: () => `/daos/${daoId}`,
      as: () => owner.token,
      empty: ['No active proposals', 'No proposals yet'],
      content: (page: Page) => page.getByTestId(`proposal-row-${proposalId}`),
    },
    {
      // signed in, the live stream stays up while HTTP is cut: the page must not wait for an event
      name: 'the proposal page',
      path: () => `/proposals/${proposalId}`,
      as: () => owner.token,
      empty: ['No votes yet'],
      content: (page: Page) => page.getByRole('heading', { level: 1, name: 'Buy a crane', exact: true }),
    },
  ];
  test(`${PAGES.map((p) => p.name).join(', ')}: each says so with "Try again", claims no empty state, and recovers by itself; "Try again" reads at once when the API is back`, async () => {
    // the pages at once, each in a page of its own with its own cut: the retries are waited out together
    const recoverByThemselves = PAGES.map(async (p) => {
      const page = await product.browser.newPage();
      await useSession(page, product.webUrl, p.as());
      await withoutServerData(page, product.webUrl);
      const restore = await cutApi(page, product.apiUrl);
      await page.goto(`${product.webUrl}${p.path()}`);
      await expectOutage(page, p.empty);
      const sameDocument = await markDocument(page);
      await restore();
      await expectRecovered(page, p.content(page));
      for (const text of p.empty.slice(0, 1)) await expect(page.getByText(text)).toHaveCount(0);
      expect(await sameDocument(), p.name).toBe(true);
      await page.close();
    });
    // and one more proposal page, whose "Try again" is clicked as soon as the API is back
    const tryAgain = async () => {
      const page = await product.browser.newPage();
      await withoutServerData(page, product.webUrl);
      const restore = await cutApi(page, product.apiUrl);
      await page.goto(`${product.webUrl}/proposals/${proposalId}`);
      await expectOutage(page, ['No votes yet']);
      await restore();
      await Promise.all([
        page.waitForRequest((req) => req.url().startsWith(`${product.apiUrl}/trpc/`)),
        page
          .getByTestId('query-error')
          .first()
          .getByRole('button', { name: 'Try again', exact: true })
          .click(),
      ]);
      await expectRecovered(page, page.getByRole('heading', { level: 1, name: 'Buy a crane', exact: true }));
      await page.close();
    };
    await Promise.all([...recoverByThemselves, tryAgain()]);
  });
});

test.describe('when the API process stops and starts again', () => {
  // one outage for both: its retries and polling take the same seconds whatever is open meanwhile
  test('the open proposal page says so with "Try again" and, signed in, recovers by itself once the live stream is back; a page opened meanwhile is no error page and recovers too', async () => {
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/proposals/${proposalId}`);
    const heading = page.getByRole('heading', { level: 1, name: 'Buy a crane', exact: true });
    await expect(heading).toBeVisible(SLOW);
    await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'true', SLOW);
    const sameDocument = await markDocument(page);
    // opened while the API is down: server rendering (docs/architecture.md, "How pages get their data")
    // gives no error page, only a page that says so
    const opened = await product.browser.newPage();
    let status: number | undefined;
    await product.stopApi();
    try {
      await Promise.all([
        expectOutage(page, ['No votes yet']),
        (async () => {
          status = (await opened.goto(`${product.webUrl}/daos/${daoId}`))?.status();
          await expectOutage(opened, ['No proposals yet']);
        })(),
      ]);
    } finally {
      await product.startApi();
    }
    expect(status).toBe(200);
    // the stream reconnects first (live again, so no more polling for figures): the failed reads must
    // still be read again, not wait for an event
    await Promise.all([
      expectRecovered(page, heading),
      expectRecovered(opened, opened.getByRole('heading', { level: 1, name: 'Quay Council', exact: true })),
    ]);
    await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'true', {
      timeout: 60_000,
    });
    await expect(page.getByTestId('results')).toBeVisible();
    expect(await sameDocument()).toBe(true);
    await Promise.all([page.close(), opened.close()]);
  });
});

test.describe('server rendering (docs/architecture.md, "How pages get their data")', () => {
  test('the first HTML of the proposal and DAO pages carries their data, and hydrates without a mismatch', async () => {
    for (const [path, text] of [
      [`/proposals/${proposalId}`, 'Buy a crane'],
      [`/daos/${daoId}`, 'Quay Council'],
    ] as const) {
      const html = await (await fetch(`${product.webUrl}${path}`)).text();
      expect(html.includes(text), `${path} server-rendered with ${text}`).toBe(true);
      // the same page without server data (the cookie of lib/prefetch.tsx) has only its placeholder
      const bare = await (
        await fetch(`${product.webUrl}${path}`, { headers: { cookie: 'plenum-ssr=0' } })
      ).text();
      expect(bare.includes(text), `${path} without server data`).toBe(false);
      const page = await product.browser.newPage();
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${product.webUrl}${path}`);
      await expect(page.getByRole('heading', { level: 1, name: text, exact: true })).toBeVisible(SLOW);
      await expect(
        page.getByTestId('live-indicator').or(page.getByTestId('dao-header')).first(),
      ).toBeVisible();
      expect(
        errors.filter((e) => /hydrat/i.test(e)),
        path,
      ).toEqual([]);
      await page.close();
    }
  });
});

test.describe('while the API is slow', () => {
  /** holds every read of the API until `release()`: what shows before the data arrives */
  async function holdApi(page: Page) {
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    await page.route(`${product.apiUrl}/trpc/**`, async (route) => {
      await released;
      await route.continue().catch(() => {});
    });
    return release;
  }

  test('the proposal and DAO pages show placeholders of their layout, no empty state, then the data', async () => {
    for (const p of [
      {
        path: `/proposals/${proposalId}`,
        skeleton: 'proposal-skeleton',
        empty: 'No votes yet',
        heading: 'Buy a crane',
      },
      { path: `/daos/${daoId}`, skeleton: 'dao-skeleton', empty: 'No proposals', heading: 'Quay Council' },
    ]) {
      const page = await product.browser.newPage();
      await withoutServerData(page, product.webUrl);
      const release = await holdApi(page);
      await page.goto(`${product.webUrl}${p.path}`);
      const skeleton = page.getByTestId(p.skeleton);
      await expect(skeleton).toBeVisible(SLOW);
      // announced to screen readers as one status
      await expect(skeleton).toHaveAttribute('role', 'status');
      await expect(skeleton).toContainText('Loading');
      // the placeholder takes the page's room (no jump from a one-line "Loading…" to the whole page)
      expect((await skeleton.boundingBox())?.height ?? 0).toBeGreaterThan(300);
      await expect(page.getByText(p.empty)).toHaveCount(0);
      release();
      await expect(page.getByRole('heading', { level: 1, name: p.heading, exact: true })).toBeVisible(SLOW);
      await expect(skeleton).toHaveCount(0);
      await page.close();
    }
  });
});

test.describe('the Votes tab, signed out', () => {
  test('lists the votes its count names, without a reload', async () => {
    const fresh = (
      await api.call<{ proposalId: string }>('POST', '/proposals', {
        body: {
          daoId,
          title: 'Paint the quay',
          creatorAddress: owner.wallet.address,
          votingDurationHours: 48,
        },
        token: owner.token,
      })
    ).proposalId;
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/proposals/${fresh}`);
    const tab = page.getByTestId('votes-tab');
    await expect(tab).toHaveText('Votes (0)', SLOW);
    await tab.click();
    await expect(page.getByText('No votes yet.')).toBeVisible();
    const sameDocument = await markDocument(page);
    for (const voter of [owner, member])
      await api.call('POST', '/votes', {
        body: { proposalId: fresh, daoId, voterAddress: voter.wallet.address, choice: 'For' },
        token: voter.token,
      });
    await expect(tab).toHaveText('Votes (2)', SLOW);
    await expect(page.getByTestId('votes').getByTestId('vote')).toHaveCount(2, SLOW);
    await expect(page.getByText('No votes yet.')).toHaveCount(0);
    expect(await sameDocument()).toBe(true);
    await page.close();
  });
});
