import { expect, test } from '@playwright/test';
import { activeUserByApi, apiGet, linkWalletByApi, signedInPage } from './account-setup';
import { fillRegisterForm, newUser, registerByApi, signInWithPassword, textOf } from './flows';
import { restClient } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';
import { injectWallet } from './wallet';

let product: Awaited<ReturnType<typeof startProduct>>;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  // registration asks to accept these terms (the checkbox these tests tick)
  product = await startProduct(browser, { TERMS_URL: 'https://example.org/terms' });
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

async function signInWithEthereum(page: import('@playwright/test').Page) {
  await page.goto(`${product.webUrl}/sign-in`);
  await page.getByRole('button', { name: 'Sign in with Ethereum' }).click();
}

test.describe('identity in the browser: Sign in with Ethereum', () => {
  test('offers registration for an unlinked wallet; once linked from the account page, the wallet signs in', async () => {
    const page = await product.browser.newPage();
    const wallet = await injectWallet(page);
    const user = newUser('linker');
    await registerByApi(product.apiUrl, user);

    await signInWithEthereum(page);
    const offer = await textOf(page, 'wallet-not-linked');
    expect(offer).toContain(wallet.address);
    expect(offer).toContain('Register, and this wallet is linked on the way');
    // the message the wallet signed is bound to this page's origin
    const host = new URL(product.webUrl).host;
    expect(wallet.signedMessages[0]).toMatch(new RegExp(`^${host} wants you to sign in`));
    expect(wallet.signedMessages[0]).toContain(`URI: ${product.webUrl}`);

    await signInWithPassword(page, product.webUrl, user);
    // signing in lands on the dashboard; the wallets are on the account page
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${product.webUrl}/account`);
    expect(await page.getByTestId('wallets').count()).toBe(0);
    await page.getByRole('button', { name: 'Link a wallet' }).click();
    // addresses are shown short (0x1234…abcd) with the full one in data-address and the copy button
    await expect(
      page.getByTestId('wallet-linked').locator(`[data-address="${wallet.address}"]`),
    ).toBeVisible();
    await expect(page.getByTestId('wallets').locator(`li[data-address="${wallet.address}"]`)).toBeVisible();
    expect(await textOf(page, 'wallets')).not.toContain(wallet.address);
    expect(await textOf(page, 'wallets')).toContain('primary');

    // sign-out lives in the account menu of the header
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    await signInWithEthereum(page);
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${product.webUrl}/account`);
    expect(await textOf(page, 'profile')).toContain(user.email);
    expect(wallet.signedMessages).toHaveLength(3);
    await page.close();
  });

  test('registers from the unlinked-wallet offer and links the wallet on the way', async () => {
    const page = await product.browser.newPage();
    const wallet = await injectWallet(page);
    const user = newUser('onboard');

    await signInWithEthereum(page);
    await textOf(page, 'wallet-not-linked');
    await page.getByRole('link', { name: 'Register, and this wallet is linked on the way' }).click();
    await page.waitForURL(/\/register\?linkWallet=1$/);
    expect(await textOf(page, 'link-on-register')).toContain(wallet.address);
    await fillRegisterForm(page, user);
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await textOf(page, 'registered-linked')).toContain(wallet.address);

    await page.getByRole('link', { name: 'Go to your account' }).click();
    await expect(page.getByTestId('wallets').locator(`li[data-address="${wallet.address}"]`)).toBeVisible({
      timeout: 20_000,
    });
    expect(await textOf(page, 'unverified')).toContain('not verified');
    // sign-out lives in the account menu of the header
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    await signInWithEthereum(page);
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${product.webUrl}/account`);
    expect(await textOf(page, 'profile')).toContain(user.email);
    await page.close();
  });

  test('makes another linked wallet the primary one from the account page', async () => {
    const user = await activeUserByApi(product.apiUrl, 'primary');
    const first = await linkWalletByApi(product.apiUrl, product.webUrl, user);
    const second = await linkWalletByApi(product.apiUrl, product.webUrl, user);
    const page = await signedInPage(product, user, '/account');
    const rowOf = (address: string) => page.getByTestId('wallets').locator(`li[data-address="${address}"]`);
    await rowOf(second.address).waitFor({ timeout: 20_000 });
    const badge = (address: string) => rowOf(address).getByTestId('primary-badge').count();
    expect(await badge(first.address)).toBe(1);
    await page.getByRole('button', { name: `Make ${second.address} the primary wallet` }).click();
    await expect.poll(() => badge(second.address), { timeout: 15_000 }).toBe(1);
    expect(await badge(first.address)).toBe(0);
    const wallets = (await apiGet(product.apiUrl, '/auth/wallets', user.token)).body.items as {
      address: string;
      isPrimary: boolean;
    }[];
    expect(wallets.filter((w) => w.isPrimary).map((w) => w.address)).toEqual([second.address]);
    await page.close();
  });

  test('unlinks a wallet after the confirmation; one that owns a DAO is refused, the DAO named', async () => {
    const user = await activeUserByApi(product.apiUrl, 'unlink');
    const owner = await linkWalletByApi(product.apiUrl, product.webUrl, user);
    const spare = await linkWalletByApi(product.apiUrl, product.webUrl, user);
    const dao = await restClient(product.apiUrl).call<{ daoId: string }>('POST', '/daos', {
      token: user.token,
      body: { name: 'Unlink Guard', ownerAddress: owner.address, votingRules: { threshold: 50 } },
    });
    const page = await signedInPage(product, user, '/account');
    const rowOf = (address: string) => page.getByTestId('wallets').locator(`li[data-address="${address}"]`);
    const unlink = async (address: string) => {
      await rowOf(address)
        .getByRole('button', { name: `Unlink ${address}` })
        .click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Unlink', exact: true }).click();
    };
    await rowOf(spare.address).waitFor({ timeout: 20_000 });
    await unlink(spare.address);
    await expect(rowOf(spare.address)).toHaveCount(0, { timeout: 15_000 });

    await unlink(owner.address);
    const inUse = page.getByTestId('unlink-in-use');
    await expect(inUse.getByRole('link', { name: 'owner of “Unlink Guard”' })).toHaveAttribute(
      'href',
      `/daos/${dao.daoId}`,
    );
    expect(await textOf(page, 'form-error')).toContain('This wallet still runs a DAO');
    await expect(rowOf(owner.address)).toHaveCount(1);
    await page.close();
  });

  test('says so readably when there is no browser wallet', async () => {
    const page = await product.browser.newPage();
    await signInWithEthereum(page);
    expect(await textOf(page, 'form-error')).toContain('No browser wallet was found');
    await page.close();
  });
});
