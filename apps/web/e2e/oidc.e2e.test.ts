import { expect, test } from '@playwright/test';
import { startIdp, type TestIdp } from '../../server/test/support/oidc-provider';
import { activeUserByApi, apiGet, signedInPage } from './account-setup';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * OpenID Connect in the browser (docs/accounts.md, "Signing in with OpenID Connect"): the product
 * configured with a real provider on loopback (oidc-provider, its interaction answered without a page),
 * "Continue with" on the sign-in page, linking from the Security tab and unlinking.
 */
let product: Awaited<ReturnType<typeof startProduct>>;
let idp: TestIdp;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  idp = await startIdp();
  product = await startProduct(browser, ({ apiUrl }) => {
    idp.configure([`${apiUrl}/auth/oidc/idp/callback`]);
    return {
      API_URL: apiUrl,
      OIDC_PROVIDERS: JSON.stringify([
        {
          id: 'idp',
          name: 'Test ID',
          issuer: idp.issuer,
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
        },
      ]),
    };
  });
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
  await idp?.close();
});

test.describe('OpenID Connect sign-in', () => {
  test('signs in from the sign-in page through the provider and lands signed in', async () => {
    const email = `oidc.${Date.now().toString(36)}@example.org`;
    idp.accounts.set('e2e-new', {
      sub: 'e2e-new',
      email,
      email_verified: true,
      given_name: 'Grace',
      family_name: 'Hopper',
    });
    idp.next = 'e2e-new';
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/sign-in?next=/account`);
    await page.getByRole('link', { name: 'Continue with Test ID' }).click();
    await page.waitForURL(`${product.webUrl}/account`);
    // the handoff in the fragment is redeemed and taken off the address
    await expect(page.getByRole('tab', { name: 'Security' })).toBeVisible({ timeout: 20_000 });
    expect(page.url()).not.toContain('#');
    const token = await page.evaluate(() => window.localStorage.getItem('plenum.session'));
    const me = await apiGet(product.apiUrl, '/auth/me', token ?? '');
    expect(me.status).toBe(200);
    expect((me.body.user as { email: string }).email).toBe(email);

    // its only way to sign in: unlinking is refused, said in words
    await page.getByRole('tab', { name: 'Security' }).click();
    const list = page.getByTestId('linked-identities');
    await expect(list.getByText('Test ID')).toBeVisible();
    await page.getByRole('button', { name: `Unlink Test ID (${email})` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Unlink' }).click();
    await expect(page.getByText('This is your only way to sign in.')).toBeVisible();
    await expect(list.getByText('Test ID')).toBeVisible();
    await page.close();
  });

  test('shows a provider’s refusal on the sign-in page', async () => {
    idp.next = 'deny';
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/sign-in`);
    await page.getByRole('link', { name: 'Continue with Test ID' }).click();
    await page.waitForURL(/\/sign-in\?error=OIDC_PROVIDER_ERROR/);
    await expect(page.getByTestId('oidc-error')).toHaveText(
      'The sign-in was cancelled or refused at the provider.',
    );
    await page.close();
  });

  test('links the provider from the Security tab, then unlinks it', async () => {
    const user = await activeUserByApi(product.apiUrl, 'oidc-link');
    idp.accounts.set('e2e-link', {
      sub: 'e2e-link',
      email: 'someone.else@example.org',
      email_verified: true,
    });
    idp.next = 'e2e-link';
    const page = await signedInPage(product, user, '/account?tab=security');
    await page.getByRole('button', { name: 'Link Test ID' }).click();
    await page.waitForURL(`${product.webUrl}/account?tab=security`);
    const list = page.getByTestId('linked-identities');
    await expect(list.getByText('someone.else@example.org')).toBeVisible({ timeout: 20_000 });

    await page.getByRole('button', { name: 'Unlink Test ID (someone.else@example.org)' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Unlink' }).click();
    await expect(page.getByText('No sign-in of another service is linked.')).toBeVisible();
    const identities = await apiGet(product.apiUrl, '/auth/identities', user.token);
    expect(identities.body).toEqual([]);
    await page.close();
  });
});
