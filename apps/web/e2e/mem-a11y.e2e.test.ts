import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { activeUserByApi, linkWalletByApi, pngBytes } from './account-setup';
import { newUser } from './flows';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * The Files, Account and Admin pages, with content, at 1280 and 375 px in light and dark: nothing wider
 * than the viewport and the chosen scheme applied, open dialogs included; and no serious or critical
 * accessibility violation (axe) at 1280 px light and 375 px dark: that pair meets each width's layout
 * and each scheme's colours, which is what changes axe's verdict, at half the runs (one takes about a
 * second a page). ui-pages.e2e.test.ts runs axe in all four on the Files, Account, admin users and
 * audit pages.
 */
const admin = newUser('a11y-admin');
let product: Awaited<ReturnType<typeof startProduct>>;
let token = '';
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser, { ADMIN_EMAILS: admin.email });
  const boss = await activeUserByApi(product.apiUrl, 'a11y-admin', admin);
  token = boss.token;
  await linkWalletByApi(product.apiUrl, product.webUrl, boss);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pngBytes(21))], { type: 'image/png' }), 'picture.png');
  const up = await fetch(`${product.apiUrl}/ipfs/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(up.status).toBe(201);
  const other = await activeUserByApi(product.apiUrl, 'a11y-other');
  const suspended = await fetch(`${product.apiUrl}/admin/users/${other.id}/suspend`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ reason: 'testing the audit log' }),
  });
  expect(suspended.status).toBe(200);
  await fetch(`${product.apiUrl}/auth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'kubo' }),
  });
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

/** resolves when the element's (and its descendants') animations have finished: a dialog fully open */
async function settled(locator: Locator) {
  await locator.evaluate((el) =>
    Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined))),
  );
}

async function check(page: Page, what: string, axe: boolean) {
  if (axe) {
    const result = await new AxeBuilder({ page }).analyze();
    const bad = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(bad, what).toEqual([]);
  }
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth, what).toBeLessThanOrEqual(clientWidth);
}

const PAGES: [path: string, ready: string][] = [
  ['/files', 'pin'],
  ['/account', 'profile-form'],
  ['/account?tab=preferences', 'preferences-form'],
  ['/account?tab=security', 'sessions'],
  ['/account?tab=tokens', 'tokens'],
  ['/admin', 'registrations-chart'],
  ['/admin/users', 'users-table'],
  ['/admin/audit', 'audit-log'],
  ['/admin/daos', 'no-pending-daos'],
];

const AXE = ['1280 light', '375 dark'];

for (const width of [1280, 375])
  for (const scheme of ['light', 'dark'] as const) {
    const axe = AXE.includes(`${width} ${scheme}`);
    test(`Files, Account and Admin ${axe ? 'pass axe and ' : ''}fit at ${width} px, ${scheme}`, async () => {
      await fetch(`${product.apiUrl}/users/${(await me()).id}/preferences`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ theme: scheme }),
      });
      const context = await product.browser.newContext({
        viewport: { width, height: 800 },
        colorScheme: scheme,
      });
      const page = await context.newPage();
      await page.goto(`${product.webUrl}/`);
      await page.evaluate((t) => window.localStorage.setItem('plenum.session', t), token);
      for (const [path, ready] of PAGES) {
        await page.goto(`${product.webUrl}${path}`);
        await expect(page.getByTestId(ready).first()).toBeVisible({ timeout: 20_000 });
        await expect(page.locator('html')).toHaveClass(
          new RegExp(scheme === 'dark' ? '\\bdark\\b' : '^(?!.*\\bdark\\b)'),
        );
        await check(page, `${path} at ${width} px, ${scheme}`, axe);
      }
      // the user panel and a confirmation, open
      await page.goto(`${product.webUrl}/admin/users`);
      await page.getByRole('button', { name: /^Details of a11y-other/ }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await settled(page.getByRole('dialog'));
      await check(page, `user panel at ${width} px, ${scheme}`, axe);
      await page.goto(`${product.webUrl}/account?tab=tokens`);
      await page.getByRole('button', { name: 'Revoke kubo' }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      // axe measured the destructive button's contrast mid fade-in once: wait for the opening to end
      await settled(page.getByRole('alertdialog'));
      await check(page, `revoke confirmation at ${width} px, ${scheme}`, axe);
      await context.close();
    });
  }

async function me() {
  const res = await fetch(`${product.apiUrl}/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { user: { id: string } }).user;
}
