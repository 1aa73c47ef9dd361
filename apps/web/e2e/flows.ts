import { expect, type Page } from '@playwright/test';

export const PASSWORD = 'Correct-Horse-9';

export function newUser(tag: string) {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
  return {
    email: `${tag}-${id}@example.com`,
    password: PASSWORD,
    firstName: 'Ada',
    lastName: `Tester ${tag}`,
  };
}
export type TestUser = ReturnType<typeof newUser>;

/** The visible text of a test id, once it is on the page. */
export async function textOf(page: Page, testId: string, timeout = 20_000) {
  const el = page.getByTestId(testId);
  await el.waitFor({ state: 'visible', timeout });
  return (await el.textContent()) ?? '';
}

export async function fillRegisterForm(page: Page, user: TestUser, opts: { terms?: boolean } = {}) {
  // a field filled before the page is hydrated is reset to the form's default when it is (a busy machine
  // lost the email that way): the password first, until a requirement other than the maximum length
  // reads met (an empty password meets only that one, and only a hydrated page follows the typing); then
  // the rest
  const password = page.getByLabel('Password', { exact: true });
  const followed = page
    .getByTestId('password-hints')
    .locator('[data-met="true"]:not([data-rule="maxLength"])');
  await expect(async () => {
    await password.fill(user.password);
    await expect(followed.first()).toBeAttached({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('First name', { exact: true }).fill(user.firstName);
  await page.getByLabel('Last name', { exact: true }).fill(user.lastName);
  if (opts.terms ?? true) await page.getByLabel('I accept the terms of use', { exact: true }).check();
}

export async function signInWithPassword(
  page: Page,
  webUrl: string,
  user: TestUser,
  password = user.password,
) {
  await page.goto(`${webUrl}/sign-in`);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Registration through the API itself, for tests whose subject is something else. */
export async function registerByApi(apiUrl: string, user: TestUser) {
  const res = await fetch(`${apiUrl}/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...user, acceptedTerms: true }),
  });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
}

/** The verification link of the newest mail to `email`, read from the API's development outbox. */
export async function verificationLinkFor(apiUrl: string, email: string): Promise<string> {
  const res = await fetch(`${apiUrl}/dev/outbox`);
  if (res.status !== 200) throw new Error(`GET /dev/outbox → ${res.status}`);
  const { items } = (await res.json()) as { items: { to: string; text: string }[] };
  const mail = items.find((m) => m.to === email);
  const link = mail?.text.match(/https?:\/\/\S+\/verify-email\?token=\S+/)?.[0];
  if (!link) throw new Error(`no verification mail to ${email}`);
  return link;
}
