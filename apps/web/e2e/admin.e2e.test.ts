import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { activeUserByApi, apiGet, linkWalletByApi, loginByApi, signedInPage } from './account-setup';
import { newUser, registerByApi, textOf } from './flows';
import { cutApi, expectOutage, expectRecovered } from './outage';
import { HOOK_TIMEOUT, startProduct } from './product';

const admin = newUser('admin');
let product: Awaited<ReturnType<typeof startProduct>>;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser, { ADMIN_EMAILS: admin.email, DAO_APPROVAL_REQUIRED: 'true' });
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

test.describe('administration in the browser', () => {
  // later tests sign in as the admin the first one registers; the pager counts the users it made
  test.describe.configure({ mode: 'serial' });

  test('searches users, suspends one with a reason (their session ends at once) and reactivates them', async () => {
    const boss = await activeUserByApi(product.apiUrl, 'admin', admin);
    const target = await activeUserByApi(product.apiUrl, 'target');
    for (let i = 0; i < 3; i++) await registerByApi(product.apiUrl, newUser('crowd'));
    expect((await apiGet(product.apiUrl, '/auth/me', target.token)).status).toBe(200);

    const page = await signedInPage(product, boss, '/admin');
    expect(await textOf(page, 'stats')).toContain('Users');
    await page.getByTestId('registrations-chart').waitFor();
    expect(await textOf(page, 'registrations-chart')).toMatch(/Registrations, last 30 days \(UTC\): 5/);

    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Users' })
      .click();
    await page.getByTestId('users-table').waitFor();
    await page.getByLabel('Search name or email').fill(target.email);
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = page.getByTestId('user-row');
    await expect(rows).toHaveCount(1);
    expect(await rows.first().getAttribute('data-email')).toBe(target.email);

    await rows
      .first()
      .getByRole('button', { name: `Details of ${target.email}` })
      .click();
    const panel = page.getByRole('dialog');
    await panel.getByRole('button', { name: 'Suspend…' }).click();
    await panel.getByLabel('Reason').fill('Spam in proposals');
    await panel.getByRole('button', { name: 'Suspend', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Suspend', exact: true }).click();
    await expect(rows.first().getByTestId('user-status')).toHaveText('Suspended');
    await panel.getByRole('button', { name: 'Close' }).click();
    // the suspended user's very next call is refused, and they cannot sign in again
    expect((await apiGet(product.apiUrl, '/auth/me', target.token)).status).toBe(401);
    await expect(loginByApi(product.apiUrl, target)).rejects.toThrow(/403.*ACCOUNT_SUSPENDED/);

    // the status filter finds them too
    await page.getByLabel('Search name or email').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Suspended', exact: true }).click();
    await expect(rows).toHaveCount(1);

    await page.getByRole('link', { name: 'Audit log' }).click();
    const log = await textOf(page, 'audit-log');
    expect(log).toContain('Spam in proposals');
    expect(log).toContain(admin.email);

    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByLabel('Search name or email').fill(target.email);
    await page.getByRole('button', { name: 'Search' }).click();
    await rows
      .first()
      .getByRole('button', { name: `Details of ${target.email}` })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reactivate' }).click();
    await expect(rows.first().getByTestId('user-status')).toHaveText('Active');
    const again = await loginByApi(product.apiUrl, target);
    expect((await apiGet(product.apiUrl, '/auth/me', again.token)).status).toBe(200);
    await page.close();
  });

  test('pages through users', async () => {
    const boss = await loginByApi(product.apiUrl, admin);
    for (let i = 0; i < 20; i++) await registerByApi(product.apiUrl, newUser('many'));
    const page = await signedInPage(product, { ...admin, ...boss }, '/admin/users');
    await page.getByTestId('users-table').waitFor({ timeout: 20_000 });
    const pager = page.getByRole('navigation', { name: 'User pages' });
    expect(await pager.textContent()).toMatch(/Page 1 of 2/);
    expect(await page.getByTestId('user-row').count()).toBe(20);
    await pager.getByRole('button', { name: 'Next' }).click();
    await expect(pager).toHaveText(/Page 2 of 2/);
    await expect.poll(() => page.getByTestId('user-row').count()).toBeGreaterThan(0);
  });

  test('tells a non-admin readably that the page is for admins only', async () => {
    const member = await activeUserByApi(product.apiUrl, 'member');
    const page = await signedInPage(product, member, '/admin');
    expect(await textOf(page, 'admins-only')).toContain('Admins only');
    expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await page.close();
  });

  test('approves a DAO waiting in the approval queue; it becomes active', async () => {
    const owner = await activeUserByApi(product.apiUrl, 'founder');
    const wallet = await linkWalletByApi(product.apiUrl, product.webUrl, owner);
    const created = await fetch(`${product.apiUrl}/daos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({
        name: 'Garden Guild',
        ownerAddress: wallet.address,
        votingRules: { threshold: 50, minVotingPeriod: 0, tokenWeighted: false },
      }),
    });
    const dao = (await created.json()) as { daoId: string; status: string };
    expect(dao.status).toBe('PENDING');

    const boss = await loginByApi(product.apiUrl, admin);
    const page = await signedInPage(product, { ...admin, ...boss }, '/admin/daos');
    const row = page.locator(`[data-testid="pending-dao"][data-dao-id="${dao.daoId}"]`);
    await row.waitFor({ timeout: 20_000 });
    expect(await row.locator('[data-address]').getAttribute('data-address')).toBe(wallet.address);
    await row.getByRole('button', { name: 'Approve Garden Guild' }).click();
    expect(await textOf(page, 'dao-approved')).toContain('Garden Guild');
    await row.waitFor({ state: 'detached' });
    expect((await apiGet(product.apiUrl, `/daos/${dao.daoId}`)).body.status).toBe('ACTIVE');
    await page.close();
  });

  test('fits a 375 px wide screen in the dark theme on the Files, Account and Admin pages', async () => {
    const boss = await loginByApi(product.apiUrl, admin);
    const res = await fetch(`${product.apiUrl}/users/${boss.id}/preferences`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${boss.token}` },
      body: JSON.stringify({ theme: 'dark' }),
    });
    expect(res.status).toBe(200);
    const context = await product.browser.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    await page.goto(`${product.webUrl}/`);
    await page.evaluate((t) => window.localStorage.setItem('plenum.session', t), boss.token);
    for (const [path, ready] of [
      ['/files', 'dropzone'],
      ['/account', 'profile-form'],
      ['/admin', 'registrations-chart'],
      ['/admin/users', 'users-table'],
      ['/admin/audit', 'audit-log'],
      ['/admin/daos', 'no-pending-daos'],
      [`/users/${boss.id}`, 'public-profile'],
    ] as const) {
      await page.goto(`${product.webUrl}${path}`);
      await page.getByTestId(ready).waitFor({ timeout: 20_000 });
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
  test('shows what stands behind an account, signs it out everywhere, filters and downloads the audit log; the user sees it in Activity', async () => {
    const boss = { ...admin, ...(await loginByApi(product.apiUrl, admin)) };
    const target = await activeUserByApi(product.apiUrl, 'behind');
    const wallet = await linkWalletByApi(product.apiUrl, product.webUrl, target);
    const page = await signedInPage(product, boss, '/admin/users');
    await page.getByLabel('Search name or email').fill(target.email);
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = page.getByTestId('user-row');
    await expect(rows).toHaveCount(1);
    await rows
      .first()
      .getByRole('button', { name: `Details of ${target.email}` })
      .click();
    const panel = page.getByRole('dialog');
    const detail = panel.getByTestId('user-detail');
    await expect(detail.getByTestId('user-wallets').locator('[data-address]')).toHaveAttribute(
      'data-address',
      wallet.address,
    );
    await expect(detail.getByTestId('user-factors')).toContainText('None: a password alone signs in.');
    await expect(detail.getByTestId('user-sessions').getByRole('listitem')).toHaveCount(1);

    await detail.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(detail.getByTestId('user-detail-done')).toHaveText('1 session ended.');
    await expect(detail.getByTestId('user-sessions')).toContainText('Not signed in anywhere.');
    expect((await apiGet(product.apiUrl, '/auth/me', target.token)).status).toBe(401);
    await panel.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByLabel('Action', { exact: true }).fill('user.sessions_revoke');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByTestId('audit-entry')).toHaveCount(1);
    await expect(page.getByTestId('audit-entry')).toContainText(
      `${admin.email} signed ${target.email} out everywhere`,
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.trim().split('\r\n')).toHaveLength(2);
    expect(csv).toContain('user.sessions_revoke');
    await page.close();

    const again = { ...target, ...(await loginByApi(product.apiUrl, target)) };
    const own = await signedInPage(product, again, '/account?tab=activity');
    const events = own.getByTestId('activity-event');
    await expect(events.first()).toContainText('Signed in with your password');
    await expect(own.locator('[data-testid="activity-event"][data-kind="sessions_revoked"]')).toHaveText(
      /An administrator signed out 1 session/,
    );
    await own.close();
  });

  test("sets a user's storage quota from their details: usage against it, then an upload over it is refused", async () => {
    const boss = { ...admin, ...(await loginByApi(product.apiUrl, admin)) };
    const target = await activeUserByApi(product.apiUrl, 'quota');
    await linkWalletByApi(product.apiUrl, product.webUrl, target);
    const upload = async (text: string) => {
      const form = new FormData();
      form.append('file', new Blob([text], { type: 'text/plain' }), 'notes.txt');
      return fetch(`${product.apiUrl}/ipfs/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.token}` },
        body: form,
      });
    };
    expect((await upload('a'.repeat(300_000))).status).toBe(201);
    const page = await signedInPage(product, boss, '/admin/users');
    await page.getByLabel('Search name or email').fill(target.email);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByTestId('user-row')).toHaveCount(1);
    await page.getByRole('button', { name: `Details of ${target.email}` }).click();
    const storage = page.getByRole('dialog').getByTestId('user-storage');
    const meter = storage.getByRole('meter', { name: 'Storage used' });
    await expect(meter).toHaveAttribute('aria-valuenow', '0'); // 300 kB of the 1 GB default
    await storage.getByLabel('Quota in MB (0 = unlimited)').fill('0.5');
    await storage.getByRole('button', { name: 'Save quota' }).click();
    await expect(storage.getByTestId('quota-saved')).toHaveText('Quota saved.');
    await expect(meter).toHaveAttribute('aria-valuenow', '60');
    const refused = await upload('b'.repeat(300_000));
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({
      reason: 'QUOTA_EXCEEDED',
      usedBytes: 300_000,
      limitBytes: 500_000,
    });
    await storage.getByRole('button', { name: 'Use the default' }).click();
    await expect(meter).toHaveAttribute('aria-valuenow', '0');
    expect((await upload('c'.repeat(300_000))).status).toBe(201);
    await page.close();
  });

  test('every admin page says an outage with "Try again", claims no empty list, and recovers by itself', async () => {
    const boss = { ...admin, ...(await loginByApi(product.apiUrl, admin)) };
    // the pages at once, each in a page of its own with its own cut: the retries are waited out together
    const pages = [
      { path: '/admin', content: (pg: Page) => pg.getByTestId('stats'), empty: [] as string[] },
      {
        path: '/admin/users',
        content: (pg: Page) => pg.getByTestId('users-table'),
        empty: ['No users match'],
      },
      {
        // the queue is empty after the approval above: its empty state is an answer, not a failed read
        path: '/admin/daos',
        content: (pg: Page) => pg.getByText('No DAO is waiting for approval.'),
        empty: ['No DAO is waiting for approval.'],
      },
      {
        path: '/admin/audit',
        content: (pg: Page) => pg.getByTestId('audit-log'),
        empty: ['No admin actions yet'],
      },
    ];
    await Promise.all(
      pages.map(async (p) => {
        const page = await signedInPage(product, boss, '/');
        const restore = await cutApi(page, product.apiUrl);
        await page.goto(`${product.webUrl}${p.path}`);
        await expectOutage(page, [...p.empty, 'for admins only']);
        await restore();
        await expectRecovered(page, p.content(page));
        await page.close();
      }),
    );
  });
});
