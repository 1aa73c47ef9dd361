import { expect, type Locator, test } from '@playwright/test';
import { activeUserByApi, linkWalletByApi, signedInPage } from './account-setup';
import { newUser, registerByApi, signInWithPassword } from './flows';
import { type ActiveUser, confirmVote, memberUserByApi, restClient, useSession } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * What a new user sees in the first hour: nothing cut or broken mid-word on a 375 px phone, sign-in
 * that lands on the dashboard, a changed vote that starts from the earlier one, the DAO page's
 * description and every rule, and the registration's terms link (TERMS_URL).
 */
const SLOW = { timeout: 20_000 };
const PHONE = { width: 375, height: 800 };
const TERMS_URL = 'https://example.org/plenum-terms';

const admin = newUser('fh-admin');
let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let owner: ActiveUser;
let voter: ActiveUser;
let daoId: string;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser, { ADMIN_EMAILS: admin.email, TERMS_URL });
  api = restClient(product.apiUrl);
  [owner, voter] = await Promise.all([
    memberUserByApi(product.apiUrl, product.webUrl, 'fh-owner'),
    // a long name, as people have: the vote box's line of weight and address must wrap cleanly
    memberUserByApi(product.apiUrl, product.webUrl, 'fh-voter-with-a-long-name'),
  ]);
  daoId = (
    await api.call<{ daoId: string }>('POST', '/daos', {
      body: {
        name: 'Orchard Keepers',
        description: 'We **plant** trees.\n\n<b>raw</b> stays text.',
        ownerAddress: owner.wallet.address,
        votingRules: { threshold: 50, allowVoteChange: true, resultsVisibility: 'after-end' },
      },
      token: owner.token,
    })
  ).daoId;
  await api.call('POST', `/daos/${daoId}/members`, {
    body: { memberAddress: voter.wallet.address },
    token: owner.token,
  });
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

async function proposal(title: string, dao = daoId) {
  const p = await api.call<{ proposalId: string }>('POST', '/proposals', {
    body: { daoId: dao, title, creatorAddress: owner.wallet.address, votingDurationHours: 1 },
    token: owner.token,
  });
  return p.proposalId;
}

async function phonePage(user: ActiveUser | null, path: string) {
  const page = await product.browser.newPage({ viewport: PHONE });
  await useSession(page, product.webUrl, user?.token ?? null);
  await page.goto(`${product.webUrl}${path}`);
  return page;
}

/** the lines an element's text takes (its text boxes, grouped by their top) */
function lineCount(el: Locator) {
  return el.evaluate((node) => {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    const rects: DOMRect[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(n);
      rects.push(...[...range.getClientRects()].filter((r) => r.width > 0));
    }
    const tops: number[] = [];
    for (const r of rects.sort((a, b) => a.top - b.top))
      if (!tops.some((t) => Math.abs(t - r.top) < r.height / 2)) tops.push(r.top);
    return tops.length;
  });
}

/** nothing in it is cut: it does not scroll sideways, and each item lies fully inside it and the window */
async function expectAllVisible(list: Locator, items: Locator) {
  const box = await list.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(box.scroll, 'the row scrolls sideways').toBeLessThanOrEqual(box.client);
  const outer = await list.boundingBox();
  for (const item of await items.all()) {
    const [b, name] = [await item.boundingBox(), (await item.textContent()) ?? ''];
    expect(b && outer, name).toBeTruthy();
    if (!b || !outer) continue;
    expect(b.x, name).toBeGreaterThanOrEqual(Math.max(0, outer.x) - 0.5);
    expect(b.x + b.width, name).toBeLessThanOrEqual(Math.min(PHONE.width, outer.x + outer.width) + 0.5);
  }
}

/** a native select's arrow lies inside the select's own box */
async function expectArrowInside(select: Locator) {
  const arrow = select.locator('xpath=following-sibling::*[local-name()="svg"][1]');
  const [s, a] = [await select.boundingBox(), await arrow.boundingBox()];
  expect(s && a).toBeTruthy();
  if (!s || !a) return;
  expect(a.x).toBeGreaterThanOrEqual(s.x);
  expect(a.x + a.width).toBeLessThanOrEqual(s.x + s.width);
}

/** the styles that break a word anywhere are off */
async function expectNoMidWordBreaks(el: Locator) {
  const style = await el.evaluate((n) => {
    const s = getComputedStyle(n);
    return { wordBreak: s.wordBreak, overflowWrap: s.overflowWrap };
  });
  expect(style.wordBreak).not.toBe('break-all');
  expect(style.overflowWrap).not.toBe('anywhere');
}

test.describe('at 375 px', () => {
  test('the account tabs all show in full', async () => {
    const page = await phonePage(owner, '/account');
    const tabs = page.getByRole('tablist', { name: 'Account sections' });
    await expect(tabs.getByRole('tab', { name: 'Access tokens', exact: true })).toBeVisible(SLOW);
    await expectAllVisible(tabs, tabs.getByRole('tab'));
    await page.close();
  });

  test('admin: the section links show in full, the sort arrow sits in its box, emails are not broken mid-word', async () => {
    const boss = await activeUserByApi(product.apiUrl, 'fh-admin', admin);
    const page = await signedInPage(product, boss, '/admin/users');
    await page.setViewportSize(PHONE);
    const nav = page.getByRole('navigation', { name: 'Administration' });
    await expect(nav.getByRole('link', { name: 'Audit log', exact: true })).toBeVisible(SLOW);
    await expectAllVisible(nav, nav.getByRole('link'));

    await expectArrowInside(page.getByLabel('Sort by', { exact: true }));

    const row = page.locator(`[data-testid="user-row"][data-email="${boss.email}"]`);
    const email = row.getByText(boss.email, { exact: true });
    await expect(email).toBeVisible(SLOW);
    await expectNoMidWordBreaks(email);
    expect(await lineCount(email)).toBe(1);
    await page.close();
  });

  test('the DAO owner’s name is not cut', async () => {
    const page = await phonePage(null, `/daos/${daoId}`);
    const name = page.getByTestId('dao-rules').getByTestId('address-name');
    await expect(name).toHaveText(/Ada Tester fh-owner/, SLOW);
    // the name or the link around it clips it (text-overflow: ellipsis) when it does not fit
    const clipped = await name.evaluate((el) =>
      [el, el.parentElement]
        .filter((e): e is HTMLElement => !!e && e.clientWidth > 0)
        .some((e) => e.scrollWidth > e.clientWidth),
    );
    expect(clipped).toBe(false);
    await page.close();
  });

  test('“Vote as” names a wallet by its short address on one line; no line ends in a dangling “·”', async () => {
    const id = await proposal('Prune the pears');
    const page = await phonePage(voter, `/proposals/${id}`);
    const form = page.getByTestId('vote-form');
    const as = form.getByRole('group', { name: 'Vote as' });
    const label = as.locator('label').first();
    await expect(label).toBeVisible(SLOW);
    await expect(label).toContainText('…');
    await expect(label).not.toContainText(voter.wallet.address);
    // nothing to follow inside a radio's label (the keyboard goes from the radio to "Cast vote")
    await expect(label.getByRole('link')).toHaveCount(0);
    expect(await lineCount(label)).toBe(1);

    await form.getByLabel('For', { exact: true }).check();
    await form.getByRole('button', { name: 'Cast vote' }).click();
    await confirmVote(page);
    const mine = page.getByTestId('your-vote');
    await expect(mine.getByTestId('address-name')).toBeVisible(SLOW);
    // every "·" between the weight and the voter sits on the line of what follows it
    const dangling = await mine.evaluate((li) => {
      const center = (r: DOMRect) => r.top + r.height / 2;
      const charRect = (node: Node, at: number) => {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        return range.getBoundingClientRect();
      };
      /** the box of the first visible thing after `node`'s character `at`, in document order */
      const nextBox = (node: Node, at: number): DOMRect | null => {
        const rest = (node.textContent ?? '').slice(at + 1).search(/\S/);
        if (rest >= 0) return charRect(node, at + 1 + rest);
        for (let n: Node | null = node; n && n !== li; n = n.parentNode) {
          for (let sib = n.nextSibling; sib; sib = sib.nextSibling) {
            if (sib.nodeType === Node.TEXT_NODE) {
              const k = (sib.textContent ?? '').search(/\S/);
              if (k >= 0) return charRect(sib, k);
            } else if (sib instanceof Element && sib.getClientRects().length) {
              return sib.getClientRects()[0] ?? null;
            }
          }
        }
        return null;
      };
      const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
      const found: string[] = [];
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = (n.textContent ?? '').indexOf('·');
        if (at < 0) continue;
        const next = nextBox(n, at);
        if (!next || Math.abs(center(next) - center(charRect(n, at))) > 8) found.push(n.textContent ?? '');
      }
      return found;
    });
    expect(dangling).toEqual([]);
    await page.close();
  });

  test('the files page’s Status filter: the word whole, the arrow in its box', async () => {
    const user = await activeUserByApi(product.apiUrl, 'fh-files');
    await linkWalletByApi(product.apiUrl, product.webUrl, user);
    const page = await signedInPage(product, user, '/files');
    await page.setViewportSize(PHONE);
    const select = page.getByLabel('Status', { exact: true });
    await expect(select).toBeVisible(SLOW);
    const label = page.locator('label', { hasText: /^Status$/ });
    expect(await lineCount(label)).toBe(1);
    await expectArrowInside(select);
    await page.close();
  });
});

test.describe('small things a new user sees', () => {
  test('signing in lands on the dashboard, or on the page named by ?next= (same site only)', async () => {
    const user = newUser('fh-signin');
    await registerByApi(product.apiUrl, user);
    const page = await product.browser.newPage();
    await signInWithPassword(page, product.webUrl, user);
    await page.waitForURL(/\/dashboard$/);

    await page.evaluate(() => localStorage.removeItem('plenum.session'));
    await page.goto(`${product.webUrl}/sign-in?next=${encodeURIComponent('/files?x=1')}`);
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/files\?x=1$/);

    // another site is never a place to go after signing in
    await page.evaluate(() => localStorage.removeItem('plenum.session'));
    await page.goto(`${product.webUrl}/sign-in?next=${encodeURIComponent('//example.org/x')}`);
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.close();
  });

  test('the confirm step shows the comment; “Change vote” starts from the earlier choice and comment', async () => {
    const id = await proposal('Cider or juice');
    const page = await phonePage(voter, `/proposals/${id}`);
    const form = page.getByTestId('vote-form');
    await form.getByLabel('Against', { exact: true }).check();
    await form.getByLabel('Comment (optional)').fill('Juice keeps longer');
    await form.getByRole('button', { name: 'Cast vote' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your vote' });
    await expect(dialog.getByTestId('confirm-comment')).toHaveText('Juice keeps longer');
    await confirmVote(page);
    await expect(page.getByTestId('your-vote')).toContainText('Your vote: Against', SLOW);

    await page.getByRole('button', { name: 'Change vote' }).click();
    await expect(form.getByLabel('Against', { exact: true })).toBeChecked();
    await expect(form.getByLabel('Comment (optional)')).toHaveValue('Juice keeps longer');
    await page.close();
  });

  test('“Download votes” shows only once there are votes', async () => {
    const dao = await api.call<{ daoId: string }>('POST', '/daos', {
      body: { name: 'Open Tally', ownerAddress: owner.wallet.address, votingRules: { threshold: 50 } },
      token: owner.token,
    });
    const id = await proposal('Mulch the beds', dao.daoId);
    const page = await phonePage(null, `/proposals/${id}`);
    await expect(page.getByTestId('results')).toBeVisible(SLOW);
    await expect(page.getByTestId('vote-export')).toHaveCount(0);
    await api.call('POST', '/votes', {
      body: { proposalId: id, daoId: dao.daoId, voterAddress: owner.wallet.address, choice: 'For' },
      token: owner.token,
    });
    await page.reload();
    await expect(page.getByTestId('vote-export').getByRole('link', { name: /CSV/ })).toBeVisible(SLOW);
    await page.close();
  });

  test('the DAO page renders its description as markdown (no raw HTML) and states every rule', async () => {
    const page = await phonePage(null, `/daos/${daoId}`);
    const header = page.getByTestId('dao-header');
    await expect(header.locator('strong', { hasText: 'plant' })).toBeVisible(SLOW);
    await expect(header).not.toContainText('**plant**');
    await expect(header).toContainText('<b>raw</b> stays text.');
    await expect(header.locator('b')).toHaveCount(0);

    // the directory's card previews it as text with the same emphasis, no markup characters
    const list = await phonePage(null, '/daos');
    const card = list
      .getByRole('listitem')
      .filter({ has: list.getByRole('link', { name: 'Orchard Keepers' }) });
    await expect(card.locator('strong', { hasText: 'plant' })).toBeVisible(SLOW);
    await expect(card).not.toContainText('**');
    await list.close();

    await expect(page.getByTestId('rules-summary')).toContainText('No minimum period');
    await expect(page.getByTestId('rules-summary')).not.toContainText('none');
    const rules = page.getByTestId('dao-rules');
    await expect(rules.getByTestId('dao-vote-change')).toHaveText(
      'Allowed: a new vote replaces the earlier one until voting ends',
    );
    await expect(rules.getByTestId('dao-results-visibility')).toHaveText('Hidden until voting ends');
    await page.close();
  });

  test('the duration hint says no minimum instead of “At least none”', async () => {
    const page = await phonePage(owner, `/daos/${daoId}/proposals/new`);
    const duration = page.getByLabel('Voting duration (hours)', { exact: false });
    await expect(duration).toBeVisible(SLOW);
    const hint = page.getByText(/at most 8,760/i);
    await expect(hint).toBeVisible();
    await expect(hint).not.toContainText('none');
    await page.close();
  });

  test('notification settings offer email only (push and SMS do not exist yet)', async () => {
    const page = await phonePage(owner, '/account?tab=preferences');
    const notifications = page.getByRole('group', { name: 'Notifications' });
    await expect(notifications.getByRole('checkbox')).toHaveCount(1, SLOW);
    await expect(notifications.getByLabel('Push notifications')).toHaveCount(0);
    await expect(notifications.getByLabel('By SMS')).toHaveCount(0);
    await page.close();
  });

  test('registration: the terms checkbox links to the configured terms and is required', async () => {
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/register`);
    const box = page.getByLabel('I accept the terms of use', { exact: true });
    await expect(box).toBeVisible(SLOW);
    const link = page.getByRole('link', { name: 'terms of use', exact: true });
    await expect(link).toHaveAttribute('href', TERMS_URL);
    await expect(box).toHaveAttribute('aria-required', 'true');
    await page.close();
  });
});
