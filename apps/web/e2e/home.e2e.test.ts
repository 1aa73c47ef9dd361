import { expect, test } from '@playwright/test';
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

test.describe('web app', () => {
  test('renders the home page with data fetched from the API through tRPC', async () => {
    const page = await product.browser.newPage();
    await page.goto(product.webUrl);
    await expect(page.getByTestId('api-status')).toContainText('Connected to Plenum API', {
      timeout: 30_000,
    });
    await page.close();
  });

  test('fits a 375 px wide screen in dark mode on every identity page', async () => {
    const context = await product.browser.newContext({
      viewport: { width: 375, height: 740 },
      colorScheme: 'dark',
    });
    const page = await context.newPage();
    for (const path of [
      '/',
      '/sign-in',
      '/register',
      '/verify-email?token=x',
      '/resend-verification',
      '/dev/outbox',
      '/account',
    ]) {
      await page.goto(`${product.webUrl}${path}`);
      await page.locator('h1').waitFor();
      const [scrollWidth, clientWidth, background] = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        document.documentElement.clientWidth,
        getComputedStyle(document.body).backgroundColor,
      ]);
      expect(scrollWidth, path).toBeLessThanOrEqual(clientWidth);
      expect(background, path).toBe('rgb(17, 19, 24)');
    }
    await context.close();
  });

  test('without TERMS_URL registration has no terms checkbox, and registering needs none', async () => {
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/register`);
    await expect(page.getByRole('button', { name: 'Create account' })).toBeVisible({ timeout: 20_000 });
    await page.getByLabel('Email', { exact: true }).fill(`no-terms-${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill('Correct-Horse-9');
    await page.getByLabel('First name', { exact: true }).fill('Ada');
    await page.getByLabel('Last name', { exact: true }).fill('Without Terms');
    await expect(page.getByRole('checkbox')).toHaveCount(0);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByTestId('registered')).toBeVisible({ timeout: 20_000 });
    await page.close();
  });

  test('runs the sign-in form from the keyboard alone', async () => {
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/sign-in`);
    await page.getByLabel('Email', { exact: true }).focus();
    await page.keyboard.type('nobody@example.com');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('password');
    await page.keyboard.type('Whatever-1');
    await page.keyboard.press('Enter');
    await page.getByTestId('form-error').waitFor();
    expect(await page.getByTestId('form-error').textContent()).toContain('Invalid email or password');
    await page.close();
  });
});
