import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { activeUserByApi, apiGet, loginByApi } from './account-setup';
import { signInWithPassword, textOf } from './flows';
import { useSession } from './governance-api';
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

const NEW_PASSWORD = 'Fresh-Start-42';

/** The link to APP_URL/`path` in the newest mail to `email`, read from the API's development outbox. */
async function mailLinkFor(email: string, path = 'reset-password'): Promise<string> {
  const res = await fetch(`${product.apiUrl}/dev/outbox`);
  const { items } = (await res.json()) as { items: { to: string; text: string }[] };
  const link = items
    .filter((m) => m.to === email)
    .map((m) => m.text.match(new RegExp(`https?://\\S+/${path}\\?token=\\S+`))?.[0])
    .find(Boolean);
  if (!link) throw new Error(`no mail to ${email} linking /${path}`);
  return link;
}

const meStatus = async (token: string) => (await apiGet(product.apiUrl, '/auth/me', token)).status;

test.describe('account security in the browser', () => {
  test('resets a forgotten password through the link in the development outbox', async () => {
    const user = await activeUserByApi(product.apiUrl, 'reset');
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(/\/forgot-password$/);
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    expect(await textOf(page, 'reset-requested')).toContain('If an account uses this address');

    // the mail is on the outbox page with the same link the API lists
    const link = await mailLinkFor(user.email);
    expect(link.startsWith(`${product.webUrl}/reset-password?token=`)).toBe(true);
    await page.getByRole('link', { name: 'Outbox' }).click();
    await page.getByTestId('outbox').getByRole('link', { name: link }).first().click();
    await page.waitForURL(/\/reset-password\?token=/);

    const password = page.getByLabel('New password', { exact: true });
    const hint = (rule: string) =>
      page.getByTestId('password-hints').locator(`[data-rule="${rule}"]`).getAttribute('data-met');
    await password.fill('weak');
    expect(await hint('minLength')).toBe('false');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    expect(await textOf(page, 'form-error')).toMatch(/does not meet the policy/);
    expect(await page.locator('[data-field-errors="newPassword"]').textContent()).toContain(
      'at least 8 characters',
    );

    await password.fill(NEW_PASSWORD);
    expect(await hint('minLength')).toBe('true');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    expect(await textOf(page, 'password-reset')).toContain('signed out everywhere');
    expect(await meStatus(user.token)).toBe(401);

    // the link works once
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('Another-Try-77');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    const spent = await textOf(page, 'form-error');
    expect(spent).toContain('already used');
    expect(spent).not.toMatch(/[{}]/);
    await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();

    await signInWithPassword(page, product.webUrl, user);
    expect(await textOf(page, 'form-error')).toContain('Invalid email or password');
    await signInWithPassword(page, product.webUrl, user, NEW_PASSWORD);
    await page.waitForURL(/\/dashboard$/);
    await page.close();
  });

  test('changes the password (other sessions end) and lists, signs out one and all other sessions', async () => {
    const user = await activeUserByApi(product.apiUrl, 'sessions');
    const page = await product.browser.newPage();
    await signInWithPassword(page, product.webUrl, user);
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${product.webUrl}/account`);
    await page.getByRole('tab', { name: 'Security' }).click();

    const sessions = page.getByTestId('session');
    await page.getByTestId('sessions').waitFor({ timeout: 20_000 });
    await expect(sessions).toHaveCount(2);
    const current = page.locator('[data-testid="session"][data-current="true"]');
    expect(await current.textContent()).toContain('Headless Chrome on Linux');
    expect(await current.getByTestId('this-device').textContent()).toBe('this device');
    expect(await current.getByRole('button', { name: /^Sign out/ }).count()).toBe(0);

    // a wrong current password reads as a sentence on the field, not as JSON
    const form = page.getByTestId('change-password-form');
    await form.getByLabel('Current password').fill('Not-the-password-1');
    await form.getByLabel('New password').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    expect(await textOf(page, 'form-error')).toContain('The current password is not correct');
    expect(await page.locator('[data-field-errors="currentPassword"]').textContent()).toContain(
      'not correct',
    );

    // then from the keyboard alone
    await form.getByLabel('Current password').fill('');
    await form.getByLabel('Current password').focus();
    await page.keyboard.type(user.password);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('newPassword');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(NEW_PASSWORD);
    await page.keyboard.press('Enter');
    expect(await textOf(page, 'password-changed')).toContain('1 other session was signed out');
    await expect(sessions).toHaveCount(1);
    expect(await meStatus(user.token)).toBe(401);

    // two more devices sign in; one is signed out from here, then all others
    const updated = { ...user, password: NEW_PASSWORD };
    const a = await loginByApi(product.apiUrl, updated);
    const b = await loginByApi(product.apiUrl, updated);
    await page.reload();
    await expect(sessions).toHaveCount(3, { timeout: 20_000 });
    await page.locator('[data-testid="session"][data-current="false"]').first().getByRole('button').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(sessions).toHaveCount(2);
    expect([await meStatus(a.token), await meStatus(b.token)].sort()).toEqual([200, 401]);
    await page.getByRole('button', { name: 'Sign out of all other sessions' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out', exact: true }).click();
    expect(await textOf(page, 'sessions-ended')).toBe('Signed out of 1 other session.');
    await expect(sessions).toHaveCount(1);
    expect([await meStatus(a.token), await meStatus(b.token)]).toEqual([401, 401]);
    expect(await page.getByRole('button', { name: 'Sign out of all other sessions' }).count()).toBe(0);
    await page.close();
  });

  test('sets up two-factor sign-in from a QR code, signs in with a recovery code after the password, and turns it off', async () => {
    const user = await activeUserByApi(product.apiUrl, 'totp');
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, user.token);
    await page.goto(`${product.webUrl}/account?tab=security`);
    const card = page.getByTestId('two-factor');
    await expect(card.getByTestId('two-factor-off')).toBeVisible({ timeout: 20_000 });
    await card.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(card.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const secret = (await card.getByTestId('totp-secret').textContent())!.trim();
    // a wrong code first: said in words on the field
    await card.getByLabel('Code from the app').fill('000000');
    await card.getByRole('button', { name: 'Turn on', exact: true }).click();
    expect(await textOf(page, 'form-error')).toContain('not correct or was used already');
    await card.getByLabel('Code from the app').fill(TOTP.generate({ secret: Secret.fromBase32(secret) }));
    await card.getByRole('button', { name: 'Turn on', exact: true }).click();
    const listed = card.getByTestId('recovery-codes').locator('li');
    await expect(listed).toHaveCount(10);
    const codes = (await listed.allTextContents()).map((c) => c.trim());
    expect(await textOf(page, 'two-factor-notice')).toContain('other sessions were signed out');
    await card.getByRole('button', { name: 'I have saved them' }).click();
    await expect(card.getByTestId('two-factor-on')).toContainText('Recovery codes left: 10');

    // signed out, the password alone asks for the second step
    await useSession(page, product.webUrl, null);
    await signInWithPassword(page, product.webUrl, user);
    const step = page.getByTestId('mfa-step');
    await expect(step.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    await step.getByLabel('Code from the app').fill('123456');
    await step.getByRole('button', { name: 'Verify' }).click();
    await expect(step.getByTestId('form-error')).toContainText('not correct or was used already');
    await step.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await step.getByLabel('Recovery code').fill(codes[0]!);
    await step.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/dashboard$/);

    // turned off with another recovery code, in the dialog
    await page.goto(`${product.webUrl}/account?tab=security`);
    await expect(card.getByTestId('two-factor-on')).toContainText('Recovery codes left: 9', {
      timeout: 20_000,
    });
    await card.getByRole('button', { name: 'Turn off' }).click();
    const dialog = page.getByTestId('two-factor-prove');
    await dialog.getByLabel('Code').fill(codes[1]!);
    await dialog.getByRole('button', { name: 'Turn off' }).click();
    await expect(card.getByTestId('two-factor-off')).toBeVisible();
    expect(await textOf(page, 'two-factor-notice')).toContain('Two-factor sign-in is off.');
    await page.close();
  });

  test('changes the email on the Security tab; the link from the outbox confirms it and the new address signs in', async () => {
    const user = await activeUserByApi(product.apiUrl, 'email');
    const newEmail = `moved.${user.email}`;
    const page = await product.browser.newPage();
    await useSession(page, product.webUrl, user.token);
    await page.goto(`${product.webUrl}/account?tab=security`);
    await expect(page.getByTestId('current-email')).toContainText(user.email, { timeout: 20_000 });
    const form = page.getByTestId('change-email-form');
    await form.getByLabel('New email address').fill(newEmail);
    await form.getByLabel('Current password').fill(user.password);
    await form.getByRole('button', { name: 'Send the confirmation link' }).click();
    expect(await textOf(page, 'email-change-sent')).toContain(
      `Check your new mailbox: we sent a link to ${newEmail}`,
    );

    await page.goto(await mailLinkFor(newEmail, 'confirm-email'));
    expect(await textOf(page, 'email-confirmed')).toContain(`Your email address is now ${newEmail}.`);
    await useSession(page, product.webUrl, null);
    await signInWithPassword(page, product.webUrl, { ...user, email: newEmail });
    await page.waitForURL(/\/dashboard$/);
    await page.close();
  });

  test('fits a 375 px wide screen in dark mode on the password and session pages', async () => {
    const user = await activeUserByApi(product.apiUrl, 'narrow');
    // the account page follows the user's theme preference, the signed-out pages the system's
    const dark = await fetch(`${product.apiUrl}/users/${user.id}/preferences`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ theme: 'dark' }),
    });
    expect(dark.status).toBe(200);
    const context = await product.browser.newContext({
      viewport: { width: 375, height: 740 },
      colorScheme: 'dark',
    });
    const page = await context.newPage();
    for (const [path, ready, signedIn] of [
      ['/forgot-password', 'h1', false],
      ['/reset-password?token=x', 'h1', false],
      ['/account?tab=security', '[data-testid="sessions"]', true],
    ] as const) {
      if (signedIn) {
        await page.goto(`${product.webUrl}/`);
        await page.evaluate((t) => window.localStorage.setItem('plenum.session', t), user.token);
      }
      await page.goto(`${product.webUrl}${path}`);
      await page.locator(ready).waitFor({ timeout: 20_000 });
      await expect
        .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor), { message: path })
        .toBe('rgb(17, 19, 24)');
      const [scrollWidth, clientWidth] = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        document.documentElement.clientWidth,
      ]);
      expect(scrollWidth, path).toBeLessThanOrEqual(clientWidth);
    }
    await context.close();
  });
});
