import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type ActiveUser, confirmVote, memberUserByApi, restClient, useSession } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';
import { injectWallet } from './wallet';

/** polls get time: two cores are shared with other builds and test runs */
const SLOW = { timeout: 20_000 };

let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let owner: ActiveUser;
let voter: ActiveUser;
let voter2: ActiveUser;
let daoId: string;
const signerKey = generatePrivateKey();
const signer = privateKeyToAccount(signerKey);

test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser);
  api = restClient(product.apiUrl);
  [owner, voter, voter2] = await Promise.all([
    memberUserByApi(product.apiUrl, product.webUrl, 'vsowner'),
    memberUserByApi(product.apiUrl, product.webUrl, 'vsvoter'),
    memberUserByApi(product.apiUrl, product.webUrl, 'vsvoter2'),
  ]);
  // equal voting: each member's weight is 1
  const dao = await api.call<{ daoId: string }>('POST', '/daos', {
    body: { name: 'Ballot Lab', ownerAddress: owner.wallet.address, votingRules: { threshold: 50 } },
    token: owner.token,
  });
  daoId = dao.daoId;
  for (const address of [voter.wallet.address, voter2.wallet.address, signer.address])
    await api.call('POST', `/daos/${daoId}/members`, {
      body: { memberAddress: address },
      token: owner.token,
    });
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

async function proposal(votingSystem: string, votingOptions?: string[]) {
  const p = await api.call<{ proposalId: string }>('POST', '/proposals', {
    body: {
      daoId,
      title: `A ${votingSystem} question`,
      creatorAddress: owner.wallet.address,
      votingDurationHours: 1,
      votingSystem,
      ...(votingOptions ? { votingOptions } : {}),
    },
    token: owner.token,
  });
  return p.proposalId;
}

async function voteByApi(proposalId: string, who: ActiveUser, choice: unknown) {
  await api.call('POST', '/votes', {
    body: { proposalId, daoId, voterAddress: who.wallet.address, choice },
    token: who.token,
  });
}

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: '375 px', width: 375, height: 800 },
];

for (const viewport of VIEWPORTS) {
  const narrow = viewport.width <= 375;

  test.describe(`voting systems in the browser, ${viewport.name}`, () => {
    let context: BrowserContext;
    let page: Page;
    test.beforeEach(async () => {
      context = await product.browser.newContext({ viewport });
      page = await context.newPage();
      await useSession(page, product.webUrl, owner.token);
    });
    test.afterEach(async () => {
      await context?.close();
    });

    /** at 375 px nothing may scroll sideways: the page is no wider than the screen */
    async function fitsTheScreen() {
      if (!narrow) return;
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
        .toBeLessThanOrEqual(viewport.width);
    }

    const form = () => page.getByTestId('vote-form');
    const cast = () => form().getByRole('button', { name: 'Cast vote' }).click();

    test('single choice: one radio, the vote counts for that option', async () => {
      const id = await proposal('single-choice', ['Oak', 'Elm', 'Abstain']);
      await page.goto(`${product.webUrl}/proposals/${id}`);
      await expect(page.getByTestId('voting-system')).toContainText('Single choice');
      await cast();
      await expect(form().locator('[data-field-errors="choice"]')).toContainText('Choose an option.');
      await form().getByLabel('Elm', { exact: true }).check();
      await fitsTheScreen();
      await cast();
      await confirmVote(page);
      await expect(page.getByTestId('vote-cast')).toContainText('“Elm” was counted with weight 1', SLOW);
      await expect(page.getByTestId('result-Elm')).toHaveAttribute('data-weight', '1', SLOW);
      await fitsTheScreen();
    });

    test('basic, chosen in the proposal form: no options editor, For/Against/Abstain', async () => {
      await page.goto(`${product.webUrl}/daos/${daoId}`);
      await page.getByText('New proposal', { exact: true }).click();
      const systems = page.getByRole('group', { name: 'Voting system' });
      await expect(systems.getByRole('radio', { name: 'Single choice' })).toBeChecked();
      await expect(systems).toContainText('Voters rank options');
      await expect(page.getByRole('group', { name: 'Voting options' })).toBeVisible();
      await systems.getByRole('radio', { name: 'Basic' }).check();
      await expect(page.getByRole('group', { name: 'Voting options' })).toHaveCount(0);
      await expect(page.getByTestId('basic-options')).toContainText('For, Against and Abstain');
      await fitsTheScreen();
      await page.getByLabel('Title', { exact: true }).fill('Open on Sundays');
      await page.getByLabel('Voting duration (hours)').fill('1');
      await page.getByRole('button', { name: 'Submit proposal' }).click();
      await page.waitForURL(/\/proposals\/[0-9a-f-]{36}$/);
      const id = page.url().split('/').pop()!;
      const created = await api.call<{ votingSystem: string; votingOptions: string[] }>(
        'GET',
        `/proposals/${id}`,
      );
      expect(created.votingSystem).toBe('basic');
      expect(created.votingOptions).toEqual(['For', 'Against', 'Abstain']);
      await expect(page.getByTestId('voting-system')).toContainText('Basic');
      await form().getByLabel('Against', { exact: true }).check();
      await cast();
      await confirmVote(page);
      await expect(page.getByTestId('vote-cast')).toContainText('“Against” was counted', SLOW);
      await expect(page.getByTestId('result-Against')).toHaveAttribute('data-weight', '1', SLOW);
      await fitsTheScreen();
    });

    test('approval: checkboxes, two approved, both get the full weight', async () => {
      const id = await proposal('approval', ['Parks', 'Roads', 'Schools']);
      await voteByApi(id, voter, ['Schools']);
      await page.goto(`${product.webUrl}/proposals/${id}`);
      await expect(page.getByTestId('voting-system')).toContainText('Approval');
      await expect(page.getByTestId('ballot')).toContainText('You may approve none');
      await form().getByRole('checkbox', { name: 'Parks' }).check();
      await form().getByRole('checkbox', { name: 'Roads' }).check();
      await fitsTheScreen();
      await cast();
      await confirmVote(page);
      await expect(page.getByTestId('vote-cast')).toContainText('“Parks, Roads” was counted', SLOW);
      await expect(page.getByTestId('result-Parks')).toHaveAttribute('data-weight', '1', SLOW);
      await expect(page.getByTestId('result-Roads')).toHaveAttribute('data-weight', '1', SLOW);
      await expect(page.getByTestId('result-Schools')).toHaveAttribute('data-weight', '1', SLOW);
      await expect(page.getByTestId('turnout')).toContainText('2 of 4 voters');
      await expect(page.getByTestId('my-votes')).toContainText('Parks, Roads');
      await fitsTheScreen();
    });

    test('ranked choice: ranked with Up/Down (drag on desktop), the rounds show who was eliminated', async () => {
      const id = await proposal('ranked-choice', ['Ash', 'Birch', 'Cedar']);
      await voteByApi(id, voter, ['Ash', 'Birch']);
      await voteByApi(id, voter2, ['Birch', 'Ash']);
      await page.goto(`${product.webUrl}/proposals/${id}`);
      await expect(page.getByTestId('voting-system')).toContainText('Ranked choice');
      // nothing ranked yet: the form says what is missing and sends nothing
      await cast();
      await expect(form().locator('[data-field-errors="choice"]')).toContainText('Rank at least one option');

      await form().getByRole('button', { name: 'Rank Ash', exact: true }).click();
      await form().getByRole('button', { name: 'Rank Cedar', exact: true }).click();
      await expect(form().getByTestId('ranked-Ash')).toContainText('1.');
      await expect(form().getByTestId('unranked-Birch')).toBeVisible();
      await expect(form().getByRole('button', { name: 'Move Ash up' })).toBeDisabled();
      // ranked and left out again: Birch stays unranked
      await form().getByRole('button', { name: 'Rank Birch', exact: true }).click();
      await expect(form().getByTestId('ranked-Birch')).toContainText('3.');
      await form().getByRole('button', { name: 'Unrank Birch' }).click();
      await expect(form().getByRole('button', { name: 'Rank Birch', exact: true })).toBeFocused();
      if (narrow) {
        await form().getByRole('button', { name: 'Move Cedar up' }).click();
      } else {
        // a pointer drag on Cedar's handle, above Ash
        const handle = form().getByTestId('drag-Cedar').boundingBox();
        const target = form().getByTestId('ranked-Ash').boundingBox();
        const [from, to] = await Promise.all([handle, target]);
        if (!from || !to) throw new Error('the ranking is not laid out');
        await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
        await page.mouse.down();
        await page.mouse.move(from.x + from.width / 2, to.y + 2, { steps: 5 });
        await page.mouse.up();
      }
      await expect(form().getByTestId('ranked-Cedar')).toContainText('1.');
      await expect(form().getByTestId('ranked-Ash')).toContainText('2.');
      // and back and forth with the keyboard
      await form().getByRole('button', { name: 'Move Cedar down' }).focus();
      await page.keyboard.press('Enter');
      await expect(form().getByTestId('ranked-Ash')).toContainText('1.');
      // Cedar is last now: its Down button is disabled, so focus moved to its Up button
      await expect(form().getByRole('button', { name: 'Move Cedar up' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(form().getByTestId('ranked-Cedar')).toContainText('1.');
      await expect(form().getByRole('button', { name: 'Move Cedar down' })).toBeFocused();
      await fitsTheScreen();
      await cast();
      await confirmVote(page);
      await expect(page.getByTestId('vote-cast')).toContainText('“1. Cedar, 2. Ash” was counted', SLOW);

      // round 1: 1 each, Ash out (a tie goes to the earliest option); round 2: Birch 2, Cedar 1
      await expect(page.getByTestId('round-2')).toBeVisible(SLOW);
      await expect(page.getByTestId('round-1-outcome')).toContainText('Ash eliminated');
      await expect(page.getByTestId('round-1')).toContainText('Cedar 1 (33.33 %)');
      await expect(page.getByTestId('round-2')).not.toContainText('Ash');
      await expect(page.getByTestId('round-2-outcome')).toContainText('Final round: Birch');
      await expect(page.getByTestId('result-Birch')).toHaveAttribute('data-weight', '2');
      await expect(page.getByTestId('result-Cedar')).toHaveAttribute('data-weight', '1');
      // ranked by score: Birch first
      await expect(page.locator('.result-bars > li').first()).toHaveAttribute('data-testid', 'result-Birch');
      await fitsTheScreen();
    });

    test('weighted: points with the split shown as typed, scores split the weight', async () => {
      const id = await proposal('weighted', ['Red', 'Green', 'Blue']);
      await page.goto(`${product.webUrl}/proposals/${id}`);
      await expect(page.getByTestId('voting-system')).toContainText('Weighted');
      await form().getByLabel('Red', { exact: true }).fill('0');
      await cast();
      await expect(form().locator('[data-field-errors="choice"]')).toContainText(
        'Give at least one option more than 0 points.',
      );
      await form().getByLabel('Green', { exact: true }).fill('-1');
      await cast();
      await expect(form().locator('[data-field-errors="choice"]')).toContainText(
        'Points for “Green” must be 0 or more.',
      );
      await form().getByLabel('Red', { exact: true }).fill('3');
      await form().getByLabel('Green', { exact: true }).fill('1');
      await expect(form().getByTestId('share-Red')).toHaveText('75 %');
      await expect(form().getByTestId('share-Green')).toHaveText('25 %');
      await expect(form().getByTestId('share-Blue')).toHaveText('0 %');
      await expect(form().getByTestId('points-total')).toContainText('75 % to Red, 25 % to Green');
      await fitsTheScreen();
      await cast();
      await confirmVote(page);
      await expect(page.getByTestId('vote-cast')).toContainText('“Red 3 · Green 1” was counted', SLOW);
      await expect(page.getByTestId('result-Red')).toHaveAttribute(
        'data-weight',
        '0.750000000000000000',
        SLOW,
      );
      await expect(page.getByTestId('result-Red')).toContainText('weight 0.75');
      await expect(page.getByTestId('result-Green')).toContainText('weight 0.25');
      await expect(page.getByTestId('result-Blue')).toContainText('weight 0 ');
      await fitsTheScreen();
    });

    test('quadratic: points, the rule explained, many small shares beat one large', async () => {
      const id = await proposal('quadratic', ['North', 'South']);
      await voteByApi(id, voter, { South: 1 });
      await page.goto(`${product.webUrl}/proposals/${id}`);
      await expect(page.getByTestId('voting-system')).toContainText('Quadratic');
      await expect(form().getByTestId('points-ballot')).toContainText('square root');
      await form().getByLabel('North', { exact: true }).fill('1.5');
      await form().getByLabel('South', { exact: true }).fill('1.5');
      await expect(form().getByTestId('share-North')).toHaveText('50 %');
      await fitsTheScreen();
      await cast();
      await confirmVote(page);
      await expect(page.getByTestId('vote-cast')).toContainText('“North 1.5 · South 1.5” was counted', SLOW);
      // R(North) = √0.5, R(South) = √0.5 + 1; scores T·R²/ΣR²: North 1/(2+√2), South the rest of 2
      await expect(page.getByTestId('result-North')).toContainText('weight 0.2929', SLOW);
      await expect(page.getByTestId('result-South')).toContainText('weight 1.7071');
      await expect(page.locator('.result-bars > li').first()).toHaveAttribute('data-testid', 'result-South');
      await fitsTheScreen();
    });
  });
}

test.describe('signed ballots (EIP-712) send the array or object and sign its canonical JSON', () => {
  test('a weighted ballot and an approval of none, signed by the browser wallet', async () => {
    const weighted = await proposal('weighted', ['Red', 'Green', 'Blue']);
    const approval = await proposal('approval', ['Parks', 'Roads']);
    const context = await product.browser.newContext();
    const page = await context.newPage();
    await injectWallet(page, { privateKey: signerKey });

    await page.goto(`${product.webUrl}/proposals/${weighted}`);
    // signed out: the wallet connects first, so the box knows it may vote
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    let form = page.getByTestId('vote-form');
    await form.getByLabel('Red', { exact: true }).fill('2');
    await form.getByLabel('Blue', { exact: true }).fill('0.50');
    await expect(form.getByTestId('share-Red')).toHaveText('80 %');
    await form.getByRole('button', { name: 'Cast vote' }).click();
    await confirmVote(page);
    await expect(page.getByTestId('vote-cast')).toContainText('“Red 2 · Blue 0.5” was counted', SLOW);
    const signedWeighted = await api.call<{
      choice: unknown;
      typedData: { message: { choice: string } } | null;
    }>('GET', `/votes/proposal/${weighted}/voter/${signer.address}`);
    expect(signedWeighted.choice).toEqual({ Red: 2, Blue: 0.5 });
    expect(signedWeighted.typedData?.message.choice).toBe('{"Blue":0.5,"Red":2}');
    await expect(page.getByTestId('votes')).toContainText('signed', SLOW);

    await page.goto(`${product.webUrl}/proposals/${approval}`);
    form = page.getByTestId('vote-form');
    await expect(form.getByRole('checkbox', { name: 'Parks' })).not.toBeChecked();
    await form.getByRole('button', { name: 'Cast vote' }).click();
    await confirmVote(page);
    await expect(page.getByTestId('vote-cast')).toContainText('“none approved” was counted', SLOW);
    const signedApproval = await api.call<{ typedData: { message: { choice: string } } | null }>(
      'GET',
      `/votes/proposal/${approval}/voter/${signer.address}`,
    );
    expect(signedApproval.typedData?.message.choice).toBe('[]');
    await expect(page.getByTestId('turnout')).toContainText('1 of 4 voters', SLOW);
    await context.close();
  });
});

test.describe('the API has the last word on a ballot', () => {
  test('a ballot the API refuses shows its 400 under the ballot', async () => {
    const id = await proposal('approval', ['Parks', 'Roads']);
    const context = await product.browser.newContext();
    const page = await context.newPage();
    await useSession(page, product.webUrl, owner.token);
    // the ballot changes on its way, as a page older than the proposal's options might send it
    await page.route('**/governance.votes.cast*', async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as Record<string, Record<string, unknown>>;
      for (const call of Object.values(body)) {
        const input = (call.json ?? call) as Record<string, unknown>;
        input.choice = ['Parks', 'Bridges'];
      }
      await route.continue({ postData: JSON.stringify(body) });
    });
    await page.goto(`${product.webUrl}/proposals/${id}`);
    const form = page.getByTestId('vote-form');
    await form.getByRole('checkbox', { name: 'Parks' }).check();
    await form.getByRole('button', { name: 'Cast vote' }).click();
    // the refusal's field errors go back under the ballot
    await confirmVote(page);
    await expect(form.locator('[data-field-errors="choice"]')).toContainText(
      '"Bridges" is not an option',
      SLOW,
    );
    await expect(form.getByRole('checkbox', { name: 'Parks' })).toBeChecked();
    await expect(page.getByTestId('vote-cast')).toHaveCount(0);
    await context.close();
  });
});

test.describe('the Results card says what passes and why', () => {
  let context: BrowserContext;
  let page: Page;
  test.beforeEach(async () => {
    context = await product.browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  test.afterEach(async () => {
    await context?.close();
  });

  test('Against ahead: the support is For’s share, not met, and the verdict says Against leads', async () => {
    // basic: For, Against, Abstain; both votes Against
    const id = await proposal('basic');
    await voteByApi(id, voter, 'Against');
    await voteByApi(id, voter2, 'Against');
    await page.goto(`${product.webUrl}/proposals/${id}`);
    const support = page.getByTestId('support');
    await expect(support).toContainText('For 0 % of 50 % needed', SLOW);
    await expect(support).toHaveAttribute('data-met', 'false');
    await expect(support.getByLabel('met', { exact: true })).toHaveCount(0);
    await expect(support.getByLabel('not met', { exact: true })).toBeVisible();
    await expect(page.getByTestId('verdict')).toHaveText(
      'Not passing so far. “Against” has more weight than “For”.',
    );
    await expect(page.getByTestId('rules')).toContainText(
      'passes when “For” has more weight than “Against” and at least 50 % of the decided weight (all votes but Abstain).',
    );
  });

  test('a proposal without Abstain says nothing about Abstain; a lone leader passes', async () => {
    const id = await proposal('single-choice', ['Oak', 'Elm']);
    await voteByApi(id, voter, 'Oak');
    await page.goto(`${product.webUrl}/proposals/${id}`);
    await expect(page.getByTestId('result-Oak')).toHaveAttribute('data-weight', '1', SLOW);
    await expect(page.getByRole('region', { name: 'Results', exact: true })).not.toContainText('Abstain');
    await expect(page.getByTestId('results-chart').locator('figcaption')).toHaveText(
      'Share of the decided weight (all votes) per option.',
    );
    await expect(page.getByTestId('support')).toHaveAttribute('data-met', 'true');
    await expect(page.getByTestId('verdict')).toHaveText(
      'Passing so far. “Oak” leads alone with 100 % of the decided weight, 50 % needed.',
    );
  });

  test('hidden results say nothing about passing', async () => {
    const dao = await api.call<{ daoId: string }>('POST', '/daos', {
      body: {
        name: 'Quiet Lab',
        ownerAddress: owner.wallet.address,
        votingRules: { threshold: 50, quorum: 20, resultsVisibility: 'after-end' },
      },
      token: owner.token,
    });
    await api.call('POST', `/daos/${dao.daoId}/members`, {
      body: { memberAddress: voter.wallet.address },
      token: owner.token,
    });
    const p = await api.call<{ proposalId: string }>('POST', '/proposals', {
      body: {
        daoId: dao.daoId,
        title: 'A hidden question',
        creatorAddress: owner.wallet.address,
        votingDurationHours: 1,
      },
      token: owner.token,
    });
    await api.call('POST', '/votes', {
      body: { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: voter.wallet.address, choice: 'For' },
      token: voter.token,
    });
    await page.goto(`${product.webUrl}/proposals/${p.proposalId}`);
    const results = page.getByRole('region', { name: 'Results', exact: true });
    await expect(page.getByTestId('results-hidden')).toBeVisible(SLOW);
    await expect(page.getByTestId('turnout')).toContainText('1 of 2 voters', SLOW);
    await expect(page.getByTestId('quorum')).toHaveText('Quorum of 20 % reached.');
    await expect(results).not.toContainText(/passing|passed|rejected/i);
    await expect(page.getByTestId('verdict')).toHaveCount(0);
    await expect(page.getByTestId('support')).toHaveCount(0);
    // the rule still names For and Against, from the proposal's options
    await expect(page.getByTestId('rules')).toContainText('passes when “For” has more weight than “Against”');
  });

  test('at 1280×900 the side column scrolls with the page: Results and Timeline come into view', async () => {
    const description = Array.from(
      { length: 60 },
      (_, i) => `Paragraph ${i + 1}: the long reasoning behind this proposal, read before voting.`,
    ).join('\n\n');
    const p = await api.call<{ proposalId: string }>('POST', '/proposals', {
      body: {
        daoId,
        title: 'A long read',
        description,
        creatorAddress: owner.wallet.address,
        votingDurationHours: 1,
      },
      token: owner.token,
    });
    await voteByApi(p.proposalId, voter, 'For');
    await useSession(page, product.webUrl, owner.token);
    await page.goto(`${product.webUrl}/proposals/${p.proposalId}`);
    await expect(page.getByText('Paragraph 60:')).toBeAttached(SLOW);
    await expect(page.getByTestId('turnout')).toContainText('1 of 4 voters', SLOW);
    const side = page.getByRole('complementary', { name: 'Vote, results and timeline' });
    // no scroll box of its own that the page's scrolling passes by
    const box = await side.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
    expect(box.scroll).toBeLessThanOrEqual(box.client + 1);
    // scrolling over the description (the mouse wheel, as a reader does) reaches both cards
    const timeline = page.getByRole('heading', { name: 'Timeline', exact: true });
    const results = page.getByRole('heading', { name: 'Results', exact: true });
    const inView = () =>
      timeline.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      });
    const scroll = () =>
      page.evaluate(() => ({
        y: window.scrollY,
        max: document.documentElement.scrollHeight - window.innerHeight,
      }));
    // the mouse wheel over the description scrolls the page itself, not a box inside it
    await page.mouse.move(300, 600);
    const before = (await scroll()).y;
    await page.mouse.wheel(0, 300);
    await expect.poll(async () => (await scroll()).y, SLOW).toBeGreaterThan(before);
    // and has come to rest (no movement over two frames) before the steps below take over
    const settled = async () => {
      const a = (await scroll()).y;
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      return (await scroll()).y === a;
    };
    await expect.poll(settled, SLOW).toBe(true);
    // then down the page in steps of 150 px as a reader does, each step instant (a wheel step lands
    // later and by more than asked on a busy machine, and could carry the page past the Timeline): the
    // Timeline comes into view on the way
    let seen = false;
    for (let top = 0; !seen; top += 150) {
      const { max } = await scroll();
      await page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), Math.min(top, max));
      seen = await inView();
      if (top >= max) break;
    }
    expect(seen).toBe(true);
    await results.scrollIntoViewIfNeeded();
    await expect(results).toBeInViewport();
    await timeline.scrollIntoViewIfNeeded();
    await expect(timeline).toBeInViewport();
  });
});

test.describe('long option names and ranked rounds have room', () => {
  const LONG = [
    'Wednesday evening at the library',
    'Saturday morning in the park',
    'Online whenever it suits',
  ];

  test('at 375 px the chart shows every option name whole, inside the chart', async () => {
    const id = await proposal('single-choice', [...LONG, 'Abstain']);
    await voteByApi(id, voter, LONG[0]);
    await voteByApi(id, voter2, LONG[1]);
    const context = await product.browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${product.webUrl}/proposals/${id}`);
    const chart = page.getByTestId('results-chart');
    await expect(chart.locator('svg [data-part="names"]')).toBeVisible(SLOW);
    const ticks = () =>
      chart.locator('svg [data-part="names"] text').evaluateAll((els) =>
        els.map((el) => {
          const spans = [...el.querySelectorAll('tspan')].map((s) => s.textContent ?? '');
          const svg = (el as SVGTextElement).ownerSVGElement?.getBoundingClientRect();
          const box = el.getBoundingClientRect();
          return {
            name: spans.length ? spans.join(' ') : (el.textContent ?? ''),
            inside: !!svg && box.left >= svg.left - 0.5 && box.right <= svg.right + 0.5,
          };
        }),
      );
    await expect
      .poll(async () => (await ticks()).map((t) => t.name).sort(), SLOW)
      .toEqual([...LONG, 'Abstain'].sort());
    expect((await ticks()).every((t) => t.inside)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await context.close();
  });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 375, height: 800 },
  ]) {
    test(`ranked-choice rounds at ${viewport.width} px: beside no sidebar, wide, nothing cut`, async () => {
      const id = await proposal('ranked-choice', LONG);
      // round 1: one each and the third ranked only second, so it goes out; round 2: the last two
      await voteByApi(id, voter, [LONG[0], LONG[2]]);
      await voteByApi(id, voter2, [LONG[1], LONG[2]]);
      const context = await product.browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${product.webUrl}/proposals/${id}`);
      const rounds = page.getByTestId('rounds');
      await expect(rounds.getByTestId('round-2')).toBeVisible(SLOW);
      const side = page.getByRole('complementary', { name: 'Vote, results and timeline' });
      await expect(side.getByTestId('rounds')).toHaveCount(0);
      const width = (await rounds.boundingBox())?.width ?? 0;
      // the body's width at 1280 px (the side column is 22rem = 352 px); the screen's less the page's margins at 375
      expect(width).toBeGreaterThan(viewport.width > 1000 ? 600 : 320);
      const cut = await rounds
        .locator('[data-option], [data-testid$="-outcome"]')
        .evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).length);
      expect(cut).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await context.close();
    });
  }
});
