import { expect, test } from '@playwright/test';
import { fillRegisterForm, newUser, signInWithPassword, textOf, verificationLinkFor } from './flows';
import { HOOK_TIMEOUT, startProduct } from './product';

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

test.describe('identity in the browser: email and password', () => {
  test('registers, verifies through the mailed link, signs in and shows the account', async () => {
    const page = await product.browser.newPage();
    const user = newUser('verify');
    await page.goto(`${product.webUrl}/register`);
    await fillRegisterForm(page, user);
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await textOf(page, 'registered')).toContain(user.email);

    // the mail is in the development outbox (API) and on its page (web app), with the same link
    const link = await verificationLinkFor(product.apiUrl, user.email);
    expect(link.startsWith(`${product.webUrl}/verify-email?token=`)).toBe(true);
    await page.getByRole('link', { name: 'Outbox' }).click();
    const mailLink = page.getByTestId('outbox').getByRole('link', { name: link });
    await mailLink.first().click();
    await page.waitForURL(/\/verify-email\?token=/);
    const verified = await textOf(page, 'verified');
    expect(verified).toContain('Your email address is verified');
    expect(verified).toContain('active');
    // the same link again: already verified, nothing changes
    await page.goto(link);
    expect(await textOf(page, 'verified')).toContain('already verified');

    await signInWithPassword(page, product.webUrl, user);
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${product.webUrl}/account`);
    const profile = await textOf(page, 'profile');
    expect(profile).toContain(user.email);
    expect(profile).toContain(`${user.firstName} ${user.lastName}`);
    expect(profile).toMatch(/Email verified\s*yes/);
    expect(await page.getByTestId('unverified').count()).toBe(0);

    // the session survives a reload (token kept in localStorage) and ends on sign-out
    await page.reload();
    expect(await textOf(page, 'profile')).toContain(user.email);
    // sign-out lives in the account menu of the header
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    await page.goto(`${product.webUrl}/account`);
    await page.getByText('You are not signed in').waitFor();
    await page.close();
  });

  test('shows a readable error for a wrong password', async () => {
    const page = await product.browser.newPage();
    const user = newUser('wrongpw');
    await page.goto(`${product.webUrl}/register`);
    await fillRegisterForm(page, user);
    await page.getByRole('button', { name: 'Create account' }).click();
    await textOf(page, 'registered');

    await signInWithPassword(page, product.webUrl, user, 'Not-the-password-1');
    const error = await textOf(page, 'form-error');
    expect(error).toContain('Invalid email or password');
    expect(error).not.toMatch(/[{}[\]]/);
    expect(page.url()).toMatch(/\/sign-in$/);
    await page.close();
  });

  test('shows live password-policy hints, client-side field errors and the server’s field errors', async () => {
    const page = await product.browser.newPage();
    await page.goto(`${product.webUrl}/register`);
    const hint = (rule: string) => page.getByTestId('password-hints').locator(`[data-rule="${rule}"]`);
    const password = page.getByLabel('Password', { exact: true });
    // typing before the page is hydrated is lost (the form resets the field when it hydrates): type until
    // the hints follow, then each later change is read as it settles
    await expect(async () => {
      await password.fill('abc');
      await expect(hint('requireLowercase')).toHaveAttribute('data-met', 'true', { timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await expect(hint('minLength')).toHaveAttribute('data-met', 'false');
    await expect(hint('requireUppercase')).toHaveAttribute('data-met', 'false');
    await expect(hint('requireNumbers')).toHaveAttribute('data-met', 'false');
    await password.fill('Abcdefg1');
    for (const rule of ['minLength', 'maxLength', 'requireUppercase', 'requireLowercase', 'requireNumbers'])
      await expect(hint(rule)).toHaveAttribute('data-met', 'true');

    // nothing filled in: the shared zod schema names each field before anything is sent
    await password.fill('');
    await page.getByRole('button', { name: 'Create account' }).click();
    await textOf(page, 'form-error');
    const fieldErrors = (name: string) => page.locator(`[data-field-errors="${name}"]`).textContent();
    expect(await fieldErrors('email')).toContain('valid email');
    expect(await fieldErrors('firstName')).toContain('required');
    expect(await fieldErrors('acceptedTerms')).toContain('accept the terms');
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    // a password the server's policy refuses: its issues appear under the field
    const user = { ...newUser('policy'), password: 'weakpassword' };
    await fillRegisterForm(page, user);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.locator('[data-field-errors="password"]').waitFor();
    const pwErrors = await fieldErrors('password');
    expect(pwErrors).toContain('must contain an uppercase letter');
    expect(pwErrors).toContain('must contain a number');
    expect(await textOf(page, 'form-error')).toContain('Password does not meet the policy');

    // an email that is taken: the server's conflict, readable
    const taken = newUser('taken');
    await fillRegisterForm(page, taken);
    await page.getByRole('button', { name: 'Create account' }).click();
    await textOf(page, 'registered');
    await page.goto(`${product.webUrl}/register`);
    await fillRegisterForm(page, taken);
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await textOf(page, 'form-error')).toContain('Email already registered');
    await page.close();
  });

  test('a German page words field errors and server errors in German, by their codes', async () => {
    const context = await product.browser.newContext({ locale: 'en-US' });
    await context.addCookies([{ name: 'NEXT_LOCALE', value: 'de', url: product.webUrl }]);
    const page = await context.newPage();
    await page.goto(`${product.webUrl}/register`);
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Konto erstellen' }) });
    const fieldError = (name: string) => form.locator(`[data-field-errors="${name}"]`);

    // a field error of the shared schema, checked in the browser (issue code invalid_email)
    await form.getByLabel('E-Mail', { exact: true }).fill('not-an-email');
    await form.getByRole('button', { name: 'Konto erstellen' }).click();
    await expect(fieldError('email')).toHaveText('muss eine gültige E-Mail-Adresse sein');
    await expect(fieldError('firstName')).toHaveText('Pflichtfeld');

    // the server's field issues (the password policy's codes) and its reason PASSWORD_POLICY
    const user = newUser('de-policy');
    await form.getByLabel('E-Mail', { exact: true }).fill(user.email);
    await form.getByLabel('Passwort', { exact: true }).fill('weakpassword');
    await form.getByLabel('Vorname', { exact: true }).fill(user.firstName);
    await form.getByLabel('Nachname', { exact: true }).fill(user.lastName);
    await form.getByLabel('Ich akzeptiere die Nutzungsbedingungen', { exact: true }).check();
    await form.getByRole('button', { name: 'Konto erstellen' }).click();
    await expect(fieldError('password')).toContainText('muss einen Großbuchstaben enthalten');
    await expect(fieldError('password')).toContainText('muss eine Ziffer enthalten');
    await expect(form.getByTestId('form-error')).toContainText(
      'Das Passwort erfüllt die Passwortregeln nicht',
    );

    // a refused sign-in: the reason INVALID_CREDENTIALS in German, not the server's English sentence
    await page.goto(`${product.webUrl}/sign-in`);
    const signIn = page
      .locator('form')
      .filter({ has: page.getByRole('button', { name: 'Anmelden', exact: true }) });
    await signIn.getByLabel('E-Mail', { exact: true }).fill(user.email);
    await signIn.getByLabel('Passwort', { exact: true }).fill('Not-the-password-1');
    await signIn.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await expect(signIn.getByTestId('form-error')).toHaveText('E-Mail-Adresse oder Passwort ist falsch.');
    await context.close();
  });

  test('resends the verification mail from its page', async () => {
    const page = await product.browser.newPage();
    const user = newUser('resend');
    await page.goto(`${product.webUrl}/register`);
    await fillRegisterForm(page, user);
    await page.getByRole('button', { name: 'Create account' }).click();
    await textOf(page, 'registered');
    const first = await verificationLinkFor(product.apiUrl, user.email);
    await page.goto(`${product.webUrl}/resend-verification`);
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByRole('button', { name: 'Send the verification email' }).click();
    expect(await textOf(page, 'resent')).toContain('verification email');
    const second = await verificationLinkFor(product.apiUrl, user.email);
    expect(second).not.toBe(first);
    await page.goto(second);
    expect(await textOf(page, 'verified')).toContain('Your email address is verified');
    await page.close();
  });
});
