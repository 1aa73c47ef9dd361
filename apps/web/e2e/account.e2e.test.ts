import { expect, test } from '@playwright/test';
import { activeUserByApi, apiGet, linkWalletByApi, pngBytes, signedInPage } from './account-setup';
import { textOf } from './flows';
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

const bodyBackground = (page: import('@playwright/test').Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test.describe('account in the browser', () => {
  test('edits the profile (bio with counter, phone, birth date, social links) and it stays saved', async () => {
    const user = await activeUserByApi(product.apiUrl, 'profile');
    const page = await signedInPage(product, user, '/account');
    const form = page.getByTestId('profile-form');
    await form.waitFor({ timeout: 20_000 });
    await form.getByLabel('First name').fill('Grace');
    await form.getByLabel('Bio').fill('Writes compilers.');
    expect(await textOf(page, 'bio-counter')).toBe('17 / 500');
    await form.getByLabel('Phone number').fill('+1 (555) 010-2030');
    await form.getByLabel('Date of birth').fill('1906-12-09');
    await form.getByRole('button', { name: 'Add a link' }).click();
    await form.getByLabel('Label 1', { exact: true }).fill('GitHub');
    await form.getByLabel('Link 1', { exact: true }).fill('https://github.com/grace');
    await form.getByRole('button', { name: 'Save profile' }).click();
    expect(await textOf(page, 'profile-saved')).toContain('saved');

    const stored = await apiGet(product.apiUrl, `/users/${user.id}`, user.token);
    expect(stored.body).toMatchObject({
      firstName: 'Grace',
      bio: 'Writes compilers.',
      phoneNumber: '+1 (555) 010-2030',
      dateOfBirth: '1906-12-09',
      socialLinks: { GitHub: 'https://github.com/grace' },
    });
    await page.reload();
    await page.getByTestId('profile-form').waitFor();
    expect(await page.getByLabel('Bio').inputValue()).toBe('Writes compilers.');
    expect(await page.getByLabel('Link 1', { exact: true }).inputValue()).toBe('https://github.com/grace');

    // a rule the server checks (a birth date in the future) comes back as a readable field error
    await page.getByLabel('Date of birth').fill('2999-01-01');
    await page.getByRole('button', { name: 'Save profile' }).click();
    const error = await textOf(page, 'form-error');
    expect(error).not.toContain('{');
    expect(await page.locator('[data-field-errors="dateOfBirth"]').textContent()).toContain('in the past');

    // the public profile shows the saved view to anyone
    const visitor = await product.browser.newPage();
    await visitor.goto(`${product.webUrl}/users/${user.id}`);
    const profile = await textOf(visitor, 'public-profile');
    expect(profile).toContain('Grace');
    expect(profile).toContain('Writes compilers.');
    expect(profile).not.toContain(user.email);
    await visitor.close();
    await page.close();
  });

  test('switches the theme to dark at once, keeps it after a reload, and stores it server-side', async () => {
    const user = await activeUserByApi(product.apiUrl, 'theme');
    const page = await signedInPage(product, user, '/account?tab=preferences');
    await page.getByTestId('theme-switch').waitFor({ timeout: 20_000 });
    const light = await bodyBackground(page);
    expect(light).toBe('rgb(255, 255, 255)');

    await page.getByLabel('Dark').check();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await bodyBackground(page)).toBe('rgb(17, 19, 24)');
    await expect
      .poll(
        async () => (await apiGet(product.apiUrl, `/users/${user.id}/preferences`, user.token)).body.theme,
      )
      .toBe('dark');

    // on a reload the theme is there before anything else renders, and on every page
    await page.goto(`${product.webUrl}/files`);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await bodyBackground(page)).toBe('rgb(17, 19, 24)');

    // a fresh browser (nothing remembered locally) gets it from the server preference
    const elsewhere = await signedInPage(product, user, '/');
    await expect.poll(() => elsewhere.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await elsewhere.close();

    await page.goto(`${product.webUrl}/account?tab=preferences`);
    await page.getByLabel('Light').check();
    expect(await bodyBackground(page)).toBe('rgb(255, 255, 255)');
    await page.close();
  });

  test('uploads an avatar with a preview and shows it; refuses a non-image readably', async () => {
    const user = await activeUserByApi(product.apiUrl, 'avatar');
    const page = await signedInPage(product, user, '/account');
    const input = page.getByLabel(/Choose a picture/);
    await input.waitFor({ timeout: 20_000 });

    await input.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just text') });
    await page.getByRole('button', { name: 'Upload picture' }).click();
    expect(await textOf(page, 'form-error')).toMatch(/type|image|picture/i);

    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: pngBytes(7) });
    await page.getByTestId('avatar-preview').waitFor();
    await page.getByRole('button', { name: 'Upload picture' }).click();
    expect(await textOf(page, 'avatar-saved')).toContain('saved');
    const avatar = page.getByTestId('avatar');
    await avatar.waitFor();
    expect(await avatar.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => avatar.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(8);

    const served = await apiGet(product.apiUrl, `/users/${user.id}/avatar`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    await page.close();
  });

  test('makes the profile private (others read a plain message) and shows why a deletion is blocked', async () => {
    const user = await activeUserByApi(product.apiUrl, 'private');
    const wallet = await linkWalletByApi(product.apiUrl, product.webUrl, user);
    const dao = await fetch(`${product.apiUrl}/daos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({
        name: 'Blocking DAO',
        ownerAddress: wallet.address,
        votingRules: { threshold: 50 },
      }),
    });
    expect(dao.status).toBe(201);

    const page = await signedInPage(product, user, '/account');
    await page.getByRole('tab', { name: 'Preferences' }).click();
    const prefs = page.getByTestId('preferences-form');
    await prefs.waitFor({ timeout: 20_000 });
    // the language is one of the app's, or the browser's ("System") until one is chosen
    const language = prefs.getByLabel('Language', { exact: true });
    await expect(language).toHaveValue('system');
    await language.selectOption('en');
    // email is the one way notifications go (push and SMS switches are not shown)
    await prefs.getByRole('checkbox', { name: 'By email' }).uncheck();
    await page.getByLabel('Profile visibility').selectOption('private');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    expect(await textOf(page, 'preferences-saved')).toContain('saved');
    expect((await apiGet(product.apiUrl, `/users/${user.id}/preferences`, user.token)).body).toMatchObject({
      language: 'en',
      followSystem: { language: false },
      notifications: { email: false },
      privacy: { profileVisibility: 'private' },
    });

    const visitor = await product.browser.newPage();
    await visitor.goto(`${product.webUrl}/users/${user.id}`);
    expect(await textOf(visitor, 'profile-private')).toBe('This profile is private.');
    await visitor.close();

    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    await page.getByLabel(/Type your email address/).fill(user.email);
    await page.getByRole('button', { name: 'Delete my account for good' }).click();
    const blocked = await textOf(page, 'form-error');
    expect(blocked).toContain('cannot be deleted');
    expect(blocked).toMatch(/DAO/);
    expect((await apiGet(product.apiUrl, '/auth/me', user.token)).status).toBe(200);
    await page.close();
  });

  test('deletes the account after the email is typed again; the session ends', async () => {
    const user = await activeUserByApi(product.apiUrl, 'leaver');
    const page = await signedInPage(product, user, '/account?tab=security');
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    const confirm = page.getByRole('button', { name: 'Delete my account for good' });
    await page.getByLabel(/Type your email address/).fill('someone-else@example.com');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel(/Type your email address/).fill(user.email.toUpperCase());
    await confirm.click();
    await page.waitForURL(`${product.webUrl}/`);
    expect(await page.evaluate(() => window.localStorage.getItem('plenum.session'))).toBeNull();
    expect((await apiGet(product.apiUrl, '/auth/me', user.token)).status).toBe(401);
    await page.close();
  });
});
