import { expect, type Locator, type Page, test } from '@playwright/test';
import { activeUserByApi, apiGet, linkWalletByApi, loginByApi } from './account-setup';
import { newUser, registerByApi } from './flows';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * The admin pages as an administrator meets them on a phone: users readable at 375 px with filter chips,
 * sorting and a side panel (suspend with a reason, after a confirmation that says what happens), the audit
 * log in sentences, DAO owners as short addresses.
 */
const admin = newUser('boss');
let product: Awaited<ReturnType<typeof startProduct>>;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser, { ADMIN_EMAILS: admin.email, DAO_APPROVAL_REQUIRED: 'true' });
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

async function phonePage(token: string, path: string): Promise<Page> {
  const context = await product.browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await page.goto(`${product.webUrl}/`);
  await page.evaluate((t) => window.localStorage.setItem('plenum.session', t), token);
  await page.goto(`${product.webUrl}${path}`);
  return page;
}

/** the texts inside `scope` that the browser wrapped onto more than one line (a word broken mid-word too) */
function wrappedTexts(scope: Locator) {
  return scope.evaluate((root) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim() ?? '';
      if (!text) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      if (rects.length === 0) continue; // hidden (sr-only texts are clipped to nothing)
      const lines = new Set(rects.map((r) => Math.round(r.top)));
      if (lines.size > 1) out.push(text);
    }
    return out;
  });
}

/** the element's box lies inside the viewport horizontally */
async function insideViewport(el: Locator) {
  const box = await el.boundingBox();
  const width = await el.page().evaluate(() => document.documentElement.clientWidth);
  return !!box && box.x >= 0 && box.x + box.width <= width + 0.5;
}

async function noSidewaysScroll(page: Page) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

test.describe('admin pages at 375 px, in words', () => {
  test.describe.configure({ mode: 'serial' });

  test('users: readable rows, unbroken pager, chips, sort, and a side panel that suspends after confirming', async () => {
    const boss = await activeUserByApi(product.apiUrl, 'boss', admin);
    const target = await activeUserByApi(product.apiUrl, 'target');
    for (let i = 0; i < 21; i++) await registerByApi(product.apiUrl, newUser(`crowd${i % 3}`));

    const page = await phonePage(boss.token, '/admin/users');
    const rows = page.getByTestId('user-row');
    await expect(rows.first()).toBeVisible({ timeout: 20_000 });
    await noSidewaysScroll(page);
    // every row's email is on screen, on one line, not squeezed into a column one letter wide
    for (const row of await rows.all()) {
      const email = (await row.getAttribute('data-email')) ?? '';
      const shown = row.getByText(email, { exact: true });
      expect(await insideViewport(shown), email).toBe(true);
      expect(await wrappedTexts(shown), email).toEqual([]);
    }
    // more than one page; its words never break
    const pager = page.getByRole('navigation', { name: 'User pages' });
    await expect(pager).toBeVisible();
    expect(await insideViewport(pager)).toBe(true);
    expect(await wrappedTexts(pager)).toEqual([]);
    await expect(pager).toContainText('Page 1 of 2');

    // sorted by email: on a phone with the sort select and the order toggle
    const emails = () => rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-email') ?? ''));
    const isSorted = async (dir: 'asc' | 'desc') => {
      const list = await emails();
      const sorted = [...list].sort();
      return list.join() === (dir === 'asc' ? sorted : sorted.reverse()).join();
    };
    await page.getByLabel('Sort by', { exact: true }).selectOption('email');
    await expect.poll(() => isSorted('desc')).toBe(true);
    await page.getByRole('button', { name: 'Descending' }).click();
    await expect.poll(() => isSorted('asc')).toBe(true);
    const asc = await emails();
    // on a wide screen with the column's header, which turns the order around
    await page.setViewportSize({ width: 1280, height: 800 });
    const header = page.getByRole('button', { name: 'Sort by email' });
    await expect(header).toHaveAttribute('data-order', 'asc');
    await header.click();
    await expect(header).toHaveAttribute('data-order', 'desc');
    await expect(page.getByRole('columnheader', { name: 'Sort by email' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect.poll(() => isSorted('desc')).toBe(true);
    // 23 users, 20 a page: the first of the other order lies beyond the last of this page
    expect(((await emails())[0] ?? '') > (asc.at(-1) ?? '')).toBe(true);
    await page.setViewportSize({ width: 375, height: 740 });

    // search, then open the user's panel from their row
    await page.getByRole('searchbox', { name: 'Search name or email' }).fill(target.email);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(rows).toHaveCount(1);
    await rows
      .first()
      .getByRole('button', { name: `Details of ${target.email}` })
      .click();
    const panel = page.getByRole('dialog', { name: `${target.firstName} ${target.lastName}` });
    await expect(panel).toBeVisible();
    await expect(panel).toContainText(target.email);
    // (once it has slid in)
    await expect.poll(() => insideViewport(panel)).toBe(true);

    // a reason is required before anything is asked
    await panel.getByRole('button', { name: 'Suspend…' }).click();
    await panel.getByRole('button', { name: 'Suspend', exact: true }).click();
    await expect(panel.getByText('Give a reason: it is recorded in the audit log.')).toBeVisible();
    await panel.getByLabel('Reason').fill('Spam in proposals');
    await panel.getByRole('button', { name: 'Suspend', exact: true }).click();
    // the confirmation says what will happen; nothing happened yet
    const confirm = page.getByRole('alertdialog', { name: `Suspend ${target.email}?` });
    await expect(confirm).toContainText('signed out at once');
    await expect(confirm).toContainText('Spam in proposals');
    expect((await apiGet(product.apiUrl, '/auth/me', target.token)).status).toBe(200);
    await confirm.getByRole('button', { name: 'Suspend', exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(panel.getByTestId('user-status')).toHaveText('Suspended');
    expect((await apiGet(product.apiUrl, '/auth/me', target.token)).status).toBe(401);
    // the panel lists the user's audit entries in words
    await expect(panel.getByTestId('user-audit')).toContainText(
      `${admin.email} suspended ${target.email}: Spam in proposals`,
    );
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(panel).toBeHidden();

    // the chips filter: suspended users only
    await page.getByRole('searchbox', { name: 'Search name or email' }).fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Suspended', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Suspended', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(rows).toHaveCount(1);
    // one page only: no pager
    await expect(page.getByRole('navigation', { name: 'User pages' })).toHaveCount(0);

    // reactivated from the panel
    await rows
      .first()
      .getByRole('button', { name: `Details of ${target.email}` })
      .click();
    await panel.getByRole('button', { name: 'Reactivate' }).click();
    await expect(panel.getByTestId('user-status')).toHaveText('Active');
    await page.context().close();
  });

  test('audit log: sentences with both emails, times with a zone, ids only in the details', async () => {
    const boss = await loginByApi(product.apiUrl, admin);
    const page = await phonePage(boss.token, '/admin/audit');
    const log = page.getByTestId('audit-log');
    await expect(log).toBeVisible({ timeout: 20_000 });
    await noSidewaysScroll(page);
    const entries = page.getByTestId('audit-entry');
    await expect(entries.first()).toContainText(`${admin.email} reactivated `);
    await expect(entries.nth(1)).toContainText(`${admin.email} suspended `);
    await expect(entries.nth(1)).toContainText(': Spam in proposals');
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text (what a reader sees) is checked
    const shown = await log.innerText();
    expect(shown).not.toMatch(UUID);
    expect(shown).not.toContain('user.suspend');
    // when: a time with its zone (a <time> element carries the exact instant)
    const when = entries.nth(1).locator('time');
    expect(await when.getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text (what a reader sees) is checked
    expect(await when.innerText()).toMatch(/UTC|GMT|[A-Z]{3,4}|[+-]\d/);
    // the ids are there for whoever needs them
    await entries.nth(1).getByText('Details').click();
    await expect(entries.nth(1)).toContainText(/user\.suspend/);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text (what a reader sees) is checked
    expect(await entries.nth(1).innerText()).toMatch(UUID);
    await page.context().close();
  });

  test('DAO approvals: the owner as a short address, readable at 375 px; the audit log names the DAO', async () => {
    const owner = await activeUserByApi(product.apiUrl, 'founder');
    const wallet = await linkWalletByApi(product.apiUrl, product.webUrl, owner);
    const created = await fetch(`${product.apiUrl}/daos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({
        name: 'Orchard Circle',
        ownerAddress: wallet.address,
        votingRules: { threshold: 50, minVotingPeriod: 0, tokenWeighted: false },
      }),
    });
    const dao = (await created.json()) as { daoId: string };
    const boss = await loginByApi(product.apiUrl, admin);
    const page = await phonePage(boss.token, '/admin/daos');
    const row = page.locator(`[data-testid="pending-dao"][data-dao-id="${dao.daoId}"]`);
    await expect(row).toBeVisible({ timeout: 20_000 });
    await noSidewaysScroll(page);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text (what a reader sees) is checked
    const text = await row.innerText();
    expect(text).not.toContain(wallet.address);
    expect(text.toLowerCase()).toContain(wallet.address.slice(0, 6).toLowerCase());
    expect(await insideViewport(row.getByRole('button', { name: 'Approve Orchard Circle' }))).toBe(true);
    await row.getByRole('button', { name: 'Approve Orchard Circle' }).click();
    await expect(row).toHaveCount(0);
    await page.goto(`${product.webUrl}/admin/audit`);
    await expect(page.getByTestId('audit-entry').first()).toContainText(
      `${admin.email} approved the DAO Orchard Circle`,
    );
    await page.context().close();
  });
});

test('the Files, Account and Admin pages follow a German language preference', async () => {
  const boss = await loginByApi(product.apiUrl, admin);
  const res = await fetch(`${product.apiUrl}/users/${boss.id}/preferences`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${boss.token}` },
    body: JSON.stringify({ language: 'de' }),
  });
  expect(res.status).toBe(200);
  const page = await phonePage(boss.token, '/admin/users');
  await expect(page.getByRole('heading', { name: 'Verwaltung', level: 1 })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Gesperrt', exact: true })).toBeVisible();
  await page.goto(`${product.webUrl}/admin/audit`);
  await expect(page.getByTestId('audit-entry').nth(1)).toContainText(`${admin.email} hat `);
  await expect(page.getByTestId('audit-entry').nth(1)).toContainText(' wieder freigeschaltet');
  await page.goto(`${product.webUrl}/account`);
  await expect(page.getByRole('heading', { name: 'Ihr Konto' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Sicherheit' })).toBeVisible();
  await page.goto(`${product.webUrl}/files`);
  await expect(page.getByRole('heading', { name: 'Dateien hochladen' })).toBeVisible();
  await expect(page.getByTestId('upload-rules')).toContainText('jeweils bis 100 MB');
  await page.context().close();
});
