import { type CDPSession, expect, type Page, test } from '@playwright/test';
import { activeUserByApi, apiGet, loginByApi } from './account-setup';
import { signInWithPassword } from './flows';
import { useSession } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * Passkeys in Chromium (docs/accounts.md, "Passkeys") with the DevTools protocol's virtual authenticator
 * standing in for a device's platform authenticator: added on the account page, signing in without a
 * password, answering the second step of a password sign-in, removed; and a copy of the credential with
 * a lower signature counter (a cloned authenticator) refused. The web app runs on `localhost`: WebAuthn
 * takes no IP address as its rp id.
 */
let product: Awaited<ReturnType<typeof startProduct>>;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser, {}, { webHost: 'localhost' });
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

const AUTHENTICATOR = {
  protocol: 'ctap2',
  transport: 'internal',
  hasResidentKey: true,
  hasUserVerification: true,
  isUserVerified: true,
  automaticPresenceSimulation: true,
} as const;

/** a page with a virtual platform authenticator attached */
async function pageWithAuthenticator() {
  const page = await product.browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', { options: AUTHENTICATOR });
  return { page, cdp, authenticatorId };
}

async function addPasskey(page: Page, name: string) {
  await page.goto(`${product.webUrl}/account?tab=security`);
  const card = page.getByTestId('passkeys');
  await expect(card.getByTestId('no-passkeys')).toBeVisible({ timeout: 20_000 });
  await card.getByLabel('Name for a new passkey').fill(name);
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(card.getByTestId('passkeys-notice')).toContainText(`The passkey “${name}” was added.`);
  await expect(card.getByTestId('passkey')).toHaveCount(1);
  await expect(card.getByTestId('passkey')).toContainText(name);
  return card;
}

async function signInWithPasskey(page: Page) {
  await page.goto(`${product.webUrl}/sign-in`);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
}

const credentialsOf = async (cdp: CDPSession, authenticatorId: string) =>
  (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;

test.describe('passkeys in the browser', () => {
  test('adds a passkey on the account page, signs in with it alone and as the second step, and removes it', async () => {
    const user = await activeUserByApi(product.apiUrl, 'passkey');
    const elsewhere = (await loginByApi(product.apiUrl, user)).token;
    const { page, cdp, authenticatorId } = await pageWithAuthenticator();
    await useSession(page, product.webUrl, user.token);
    const card = await addPasskey(page, 'Virtual laptop');
    const [credential] = await credentialsOf(cdp, authenticatorId);
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    // the account's first second factor: its other session (opened with the password alone) ended
    expect((await apiGet(product.apiUrl, '/auth/me', elsewhere)).status).toBe(401);
    expect((await apiGet(product.apiUrl, '/auth/me', user.token)).status).toBe(200);

    // signed out: the passkey alone signs in, no email, no password
    await useSession(page, product.webUrl, null);
    await signInWithPasskey(page);
    await page.waitForURL(/\/dashboard$/);

    // the password now asks for the second step, which the passkey answers
    await useSession(page, product.webUrl, null);
    await signInWithPassword(page, product.webUrl, user);
    const step = page.getByTestId('mfa-step');
    await expect(step.getByText('Confirm the sign-in with one of your passkeys.')).toBeVisible();
    await expect(step.getByLabel('Code from the app')).toHaveCount(0);
    await step.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL(/\/dashboard$/);

    await page.goto(`${product.webUrl}/account?tab=security`);
    await expect(card.getByTestId('passkey')).toContainText('last used', { timeout: 20_000 });
    await card.getByRole('button', { name: 'Remove the passkey “Virtual laptop”' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(card.getByTestId('passkeys-notice')).toContainText(
      'The passkey “Virtual laptop” was removed.',
    );
    await expect(card.getByTestId('no-passkeys')).toBeVisible();

    // the authenticator still holds it, but the server no longer knows it
    await useSession(page, product.webUrl, null);
    await signInWithPasskey(page);
    await expect(page.getByTestId('passkey-sign-in').getByTestId('form-error')).toContainText(
      'This passkey could not sign you in',
    );
    await page.close();
  });

  test('refuses a cloned authenticator whose signature counter went backwards', async () => {
    const user = await activeUserByApi(product.apiUrl, 'passkey-clone');
    const { page, cdp, authenticatorId } = await pageWithAuthenticator();
    await useSession(page, product.webUrl, user.token);
    await addPasskey(page, 'Original');
    // a copy taken now, before the original signs in again
    const [copied] = await credentialsOf(cdp, authenticatorId);
    for (let i = 0; i < 2; i++) {
      await useSession(page, product.webUrl, null);
      await signInWithPasskey(page);
      await page.waitForURL(/\/dashboard$/);
    }
    const [original] = await credentialsOf(cdp, authenticatorId);
    expect(original!.signCount).toBeGreaterThan(copied!.signCount + 1);

    // the original leaves; a second authenticator holding the copy takes its place
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    const { authenticatorId: cloneId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: AUTHENTICATOR,
    });
    await cdp.send('WebAuthn.addCredential', { authenticatorId: cloneId, credential: copied! });
    await useSession(page, product.webUrl, null);
    await signInWithPasskey(page);
    await expect(page.getByTestId('passkey-sign-in').getByTestId('form-error')).toContainText(
      'This passkey looks copied',
    );
    expect(page.url()).toMatch(/\/sign-in$/);
    await page.close();
  });
});
