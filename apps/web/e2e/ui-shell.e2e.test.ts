import { expect, type Page, test } from '@playwright/test';
import { activeUserByApi, apiGet, linkWalletByApi, signedInPage } from './account-setup';
import { cutApi, expectOutage, expectRecovered, withoutServerData } from './outage';
import { HOOK_TIMEOUT, startProduct } from './product';

let product: Awaited<ReturnType<typeof startProduct>>;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser);
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

const SLOW = { timeout: 30_000 };
const lang = (page: Page) => page.locator('html').getAttribute('lang');

async function putPreferences(userId: string, token: string, body: Record<string, unknown>) {
  const res = await fetch(`${product.apiUrl}/users/${userId}/preferences`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

test.describe('shell, languages and recovery', () => {
  test('signed out, the browser’s language decides; the language menu switches it', async ({ browser }) => {
    const german = await browser.newContext({ locale: 'de-DE' });
    const page = await german.newPage();
    await page.goto(`${product.webUrl}/sign-in`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Anmelden');
    expect(await lang(page)).toBe('de');
    await expect(page.getByLabel('Passwort', { exact: true })).toBeVisible();
    await german.close();

    const english = await browser.newContext({ locale: 'en-US' });
    const en = await english.newPage();
    await en.goto(`${product.webUrl}/sign-in`);
    await expect(en.getByRole('heading', { level: 1 })).toHaveText('Sign in');
    await en.getByRole('button', { name: 'Language: English' }).click();
    await en.getByRole('menuitemradio', { name: 'Deutsch' }).click();
    await expect(en.getByRole('heading', { level: 1 })).toHaveText('Anmelden', SLOW);
    expect(await lang(en)).toBe('de');
    // the choice holds across pages for this browser
    await en.goto(`${product.webUrl}/register`);
    await expect(en.getByRole('heading', { level: 1 })).toHaveText('Konto erstellen');
    await english.close();
  });

  test('signed in, the stored language preference decides, and the menu changes the preference', async ({
    browser,
  }) => {
    const user = await activeUserByApi(product.apiUrl, 'lang');
    await putPreferences(user.id, user.token, { language: 'de-AT' });
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${product.webUrl}/`);
    await page.evaluate((t) => window.localStorage.setItem('plenum.session', t), user.token);
    await page.goto(`${product.webUrl}/sign-in`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Anmelden', SLOW);
    expect(await lang(page)).toBe('de');

    await page.getByRole('button', { name: 'Sprache: Deutsch' }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in', SLOW);
    await expect
      .poll(
        async () => (await apiGet(product.apiUrl, `/users/${user.id}/preferences`, user.token)).body.language,
      )
      .toBe('en');

    // signing out hands the language back to the browser
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible(SLOW);
    expect(await lang(page)).toBe('en');
    await context.close();
  });

  test('the account menu opens from the keyboard and leads to the account page', async () => {
    const user = await activeUserByApi(product.apiUrl, 'menu');
    const page = await signedInPage(product, user, '/');
    const trigger = page.getByRole('button', { name: 'Account menu' });
    await expect(trigger).toContainText('Ada', SLOW);
    await trigger.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toContainText(user.email);
    // opened from the keyboard, the first item has the focus
    await expect(page.getByRole('menuitem', { name: 'Account' })).toBeFocused();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/account$/);
    await page.close();
  });

  test('at 375 px the sections move into a menu that fits the screen', async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    await page.goto(`${product.webUrl}/`);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await page.getByRole('button', { name: 'Open the menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu.getByRole('link', { name: 'DAOs' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Register' })).toBeVisible();
    const box = await menu.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await menu.getByRole('link', { name: 'DAOs' }).click();
    await page.waitForURL(/\/daos$/);
    await expect(menu).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await context.close();
  });

  test('a theme chosen while signed out is there on the next load before anything is painted', async ({
    browser,
  }) => {
    const context = await browser.newContext({ colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${product.webUrl}/`);
    await expect(page.locator('html')).toHaveClass(/\blight\b/);
    await page.getByRole('button', { name: /^Theme:/ }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      'rgb(17, 19, 24)',
    );
    // at DOMContentLoaded React has not run yet: the class comes from the script in the document itself
    await page.reload({ waitUntil: 'domcontentloaded' });
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await context.close();
  });

  test('has a favicon', async () => {
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/`);
    const href = await page.locator('link[rel="icon"]').first().getAttribute('href');
    expect(href).toBeTruthy();
    const res = await fetch(new URL(href!, product.webUrl));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('image/svg+xml');
    await page.close();
  });

  test('a page that could not reach the server says so, offers "Try again", and recovers by itself', async () => {
    const page = await product.browser.newPage();
    const api = `${product.apiUrl}/trpc/**`;
    await page.route(api, (route) => route.abort('connectionrefused'));
    await page.goto(`${product.webUrl}/`);
    const status = page.getByTestId('api-status');
    await expect(status.getByRole('alert')).toContainText('The server could not be reached', SLOW);
    const retry = status.getByRole('button', { name: 'Try again' });
    await expect(retry).toBeVisible();

    // still down: "Try again" tries (and fails) again; the message stays instead of a loading flicker
    await retry.click();
    await expect(status.getByRole('alert')).toContainText('The server could not be reached');
    await expect(retry).toBeVisible();

    // the API is back: no click, no reload, the page finds it
    await page.unroute(api);
    await expect(status).toContainText('Connected to Plenum API', SLOW);
    await expect(status.getByRole('alert')).toHaveCount(0);
    await page.close();
  });

  test('"Try again" fetches at once when the API is back', async () => {
    const page = await product.browser.newPage();
    const api = `${product.apiUrl}/trpc/**`;
    await page.route(api, (route) => route.abort('connectionrefused'));
    await page.goto(`${product.webUrl}/`);
    const status = page.getByTestId('api-status');
    await expect(status.getByRole('button', { name: 'Try again' })).toBeVisible(SLOW);
    await page.unroute(api);
    await Promise.all([
      page.waitForRequest((req) => req.url().startsWith(`${product.apiUrl}/trpc/`)),
      status.getByRole('button', { name: 'Try again' }).click(),
    ]);
    await expect(status).toContainText('Connected to Plenum API', SLOW);
    await page.close();
  });
  test('the account, files and profile pages say an outage with "Try again", claim nothing empty, and recover by themselves', async () => {
    const user = await activeUserByApi(product.apiUrl, 'outage');
    await linkWalletByApi(product.apiUrl, product.webUrl, user);
    // the pages at once, each in a page of its own with its own cut: the retries are waited out together
    const pages = [
      { path: '/account', content: 'wallets', empty: ['No wallet linked yet', 'not signed in'] },
      { path: '/files', content: 'no-pins', empty: ['Link a wallet'] },
      { path: `/users/${user.id}`, content: 'public-profile', empty: [] as string[] },
    ];
    await Promise.all(
      pages.map(async (p) => {
        const page = await signedInPage(product, user, '/');
        // the browser's own reads: the profile page would otherwise arrive with its data from the server
        await withoutServerData(page, product.webUrl);
        const restore = await cutApi(page, product.apiUrl);
        await page.goto(`${product.webUrl}${p.path}`);
        await expectOutage(page, p.empty);
        await restore();
        await expectRecovered(page, page.getByTestId(p.content).first());
        await page.close();
      }),
    );
  });
});
