import { expect, type Page, test } from '@playwright/test';
import {
  activeUserByApi,
  apiGet,
  linkWalletByApi,
  loginByApi,
  pngBytes,
  signedInPage,
} from './account-setup';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * Uploads with their limits known before sending (a server with a 1 MB limit), several files at once each
 * with its own progress and result, no pager on an empty list, access tokens on the Account page (with
 * the scopes and lifetime chosen), and confirmations before revoking a token or signing out a session.
 */
const MB = 1024 * 1024;
let product: Awaited<ReturnType<typeof startProduct>>;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser, { MAX_FILE_SIZE: String(MB) });
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

/** counts the upload requests the page sends */
function countUploads(page: Page) {
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/ipfs/upload') sent.push(r.url());
  });
  return sent;
}

test.describe('uploads and tokens', () => {
  test('shows the limits first, refuses a file over the size limit at once, and uploads several files each with its own progress', async () => {
    const user = await activeUserByApi(product.apiUrl, 'multi');
    await linkWalletByApi(product.apiUrl, product.webUrl, user);
    const page = await signedInPage(product, user, '/files');
    const sent = countUploads(page);
    const zone = page.getByTestId('dropzone');
    await expect(zone).toContainText('up to 1 MB', { timeout: 20_000 });
    await expect(zone).toContainText(/JPEG images, PNG images, PDF documents,? or plain text/);

    await page.getByLabel('Choose files to upload').setInputFiles([
      { name: 'one.png', mimeType: 'image/png', buffer: pngBytes(11) },
      { name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(Math.round(1.2 * MB), 'a') },
      { name: 'two.png', mimeType: 'image/png', buffer: pngBytes(12) },
    ]);
    const item = (name: string) => page.locator(`[data-testid="upload-item"][data-name="${name}"]`);
    await expect(item('big.txt')).toHaveAttribute('data-state', 'refused');
    await expect(item('big.txt')).toContainText('1.2 MB is over the 1 MB limit');
    for (const name of ['one.png', 'two.png']) {
      await expect(item(name)).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
      await expect(item(name).getByRole('progressbar', { name: `Upload of ${name}` })).toHaveAttribute(
        'aria-valuenow',
        '100',
      );
      await expect(item(name)).toContainText('PNG image');
    }
    // the refused file was never sent
    expect(sent).toHaveLength(2);
    await expect(page.getByTestId('pin')).toHaveCount(2);
    expect((await apiGet(product.apiUrl, '/pins', user.token)).body.count).toBe(2);

    // dropping two files uploads both
    const dataTransfer = await page.evaluateHandle(
      (files: { name: string; b64: string }[]) => {
        const dt = new DataTransfer();
        for (const f of files)
          dt.items.add(
            new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: 'text/plain' }),
          );
        return dt;
      },
      [
        { name: 'drop-a.txt', b64: Buffer.from('first dropped\n').toString('base64') },
        { name: 'drop-b.txt', b64: Buffer.from('second dropped\n').toString('base64') },
      ],
    );
    await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer });
    await expect(item('drop-a.txt')).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    await expect(item('drop-b.txt')).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    await expect(page.getByTestId('pin')).toHaveCount(4);
    expect(sent).toHaveLength(4);
    await page.close();
  });

  test('says in words why the server refused a file, with no MIME type or byte count', async () => {
    const user = await activeUserByApi(product.apiUrl, 'words');
    await linkWalletByApi(product.apiUrl, product.webUrl, user);
    const page = await signedInPage(product, user, '/files');
    await page.getByLabel('Choose files to upload').setInputFiles({
      name: 'innocent.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<!doctype html><html><body>hi</body></html>'),
    });
    const item = page.locator('[data-testid="upload-item"][data-name="innocent.png"]');
    await expect(item).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
    await expect(item).toContainText('web page (HTML)');
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text (what a reader sees) is checked
    expect(await item.getByTestId('upload-failed').innerText()).not.toMatch(/text\/html|\d+ bytes|415/);
    await page.close();
  });

  test('an empty list has no pager; access tokens live on the Account page and are revoked after a confirmation', async () => {
    const user = await activeUserByApi(product.apiUrl, 'empty');
    await linkWalletByApi(product.apiUrl, product.webUrl, user);
    const page = await signedInPage(product, user, '/files');
    await expect(page.getByTestId('no-pins')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('navigation', { name: 'Pin pages' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Access tokens' })).toHaveCount(0);

    await page.goto(`${product.webUrl}/account`);
    await page.getByRole('tab', { name: 'Access tokens' }).click();
    await page.getByLabel('Token name').fill('kubo at home');
    // what Kubo needs: read and storage (the default also ticks governance); "never" says what it means
    await page.getByRole('checkbox', { name: 'Governance', exact: true }).click();
    await page.getByLabel('Expires', { exact: true }).selectOption({ label: 'Never' });
    await expect(page.getByTestId('never-expires-warning')).toContainText('works until you revoke it');
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByTestId('created-token')).toContainText('shown only once');
    const token = await page.getByLabel('New access token').inputValue();
    expect((await apiGet(product.apiUrl, '/pins', token)).status).toBe(200);
    const listed = page.locator('[data-testid="token"][data-name="kubo at home"]');
    await expect(listed.locator('[data-scope]')).toHaveText(['Read', 'Storage']);
    await expect(listed).toContainText('never expires');
    // the form is back to its defaults for the next token
    await expect(page.getByRole('checkbox', { name: 'Governance', exact: true })).toBeChecked();

    await page.getByRole('button', { name: 'Revoke kubo at home' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Revoke “kubo at home”?' });
    await expect(confirm).toContainText('stop working at once');
    // cancelled: nothing happens
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    expect((await apiGet(product.apiUrl, '/pins', token)).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke kubo at home' }).click();
    await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect(page.getByTestId('tokens')).toHaveCount(0);
    expect((await apiGet(product.apiUrl, '/pins', token)).status).toBe(401);
    await page.close();
  });

  test('signing out another session or all of them asks first and says what happens', async () => {
    const user = await activeUserByApi(product.apiUrl, 'devices');
    const other = await loginByApi(product.apiUrl, user);
    const third = await loginByApi(product.apiUrl, user);
    const page = await signedInPage(product, user, '/account');
    await page.getByRole('tab', { name: 'Security' }).click();
    const sessions = page.getByTestId('session');
    await expect(sessions).toHaveCount(3, { timeout: 20_000 });
    await page.locator('[data-testid="session"][data-current="false"]').first().getByRole('button').click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('signed out at once');
    await confirm.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(sessions).toHaveCount(2);
    const statuses = async () =>
      [
        (await apiGet(product.apiUrl, '/auth/me', other.token)).status,
        (await apiGet(product.apiUrl, '/auth/me', third.token)).status,
      ].sort();
    expect(await statuses()).toEqual([200, 401]);
    await page.getByRole('button', { name: 'Sign out of all other sessions' }).click();
    await expect(page.getByRole('alertdialog')).toContainText('1 other session');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(sessions).toHaveCount(1);
    expect(await statuses()).toEqual([401, 401]);
    await page.close();
  });
});
