import { expect, type Page, test } from '@playwright/test';
import { type ApiUser, activeUserByApi, linkWalletByApi, signedInPage } from './account-setup';
import { newUser } from './flows';
import { restClient } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * The API stores user-supplied strings as given (a file named `<img …>.txt` is kept so). Every page
 * that shows one must show it as text: no markup made from it, no script run, no `javascript:` link.
 */
const IMG = '<img src=x onerror=window.__xss=1>';
const SCRIPT = '<script>window.__xss=1</script>';
const JS_URL = 'javascript:window.__xss=1';
const FILE_NAME = '<img src=x onerror=alert(1)>.txt';
const SLOW = { timeout: 20_000 };

const adminUser = newUser('xss-admin');
let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let author: ApiUser;
let wallet: string;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser, { ADMIN_EMAILS: adminUser.email });
  api = restClient(product.apiUrl);
  author = await activeUserByApi(product.apiUrl, 'xss', {
    ...newUser('xss'),
    firstName: IMG,
    lastName: SCRIPT,
  });
  wallet = (await linkWalletByApi(product.apiUrl, product.webUrl, author)).address;
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

/** A signed-in page that records every dialog (an `alert` would be one). */
async function watchedPage(user: ApiUser, path: string) {
  const page = await signedInPage(product, user, path);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return { page, dialogs };
}

/** Shows `texts` literally once they are on the page, and nothing ran or was made from them. */
async function expectShownAsText(page: Page, dialogs: string[], texts: string[]) {
  const main = page.locator('main');
  for (const text of texts) await expect(main).toContainText(text, SLOW);
  // React would have made any element from the data while rendering it: none is there
  expect(await page.locator('img[src="x"], [onerror], [onload]').count()).toBe(0);
  expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
}

test.describe('user-supplied strings in the browser', () => {
  test('shows an uploaded file name as text on the files page', async () => {
    const { page, dialogs } = await watchedPage(author, '/files');
    await page.getByLabel('Choose files to upload').setInputFiles({
      name: FILE_NAME,
      mimeType: 'text/plain',
      buffer: Buffer.from('plain words\n'),
    });
    await expectShownAsText(page, dialogs, [FILE_NAME]);
    expect(await page.getByTestId('upload-done').textContent()).toContain(FILE_NAME);
    await expect(page.getByTestId('pin').first()).toContainText(FILE_NAME, SLOW);
    await page.reload();
    await expectShownAsText(page, dialogs, [FILE_NAME]);
    await page.close();
  });

  test('shows DAO and proposal names, descriptions, options and comments as text', async () => {
    const ownerAddress = wallet;
    const dao = await api.call<{ daoId: string }>('POST', '/daos', {
      body: { name: IMG, description: SCRIPT, ownerAddress, votingRules: { threshold: 50 } },
      token: author.token,
    });
    const proposal = await api.call<{ proposalId: string }>('POST', '/proposals', {
      body: {
        daoId: dao.daoId,
        title: IMG,
        description: `${SCRIPT} ${JS_URL}`,
        creatorAddress: ownerAddress,
        votingDurationHours: 1,
        votingOptions: [IMG, JS_URL, 'Against'],
      },
      token: author.token,
    });
    await api.call('POST', '/votes', {
      body: {
        proposalId: proposal.proposalId,
        daoId: dao.daoId,
        voterAddress: ownerAddress,
        choice: IMG,
        comment: SCRIPT,
      },
      token: author.token,
    });

    const { page, dialogs } = await watchedPage(author, '/dashboard');
    await expectShownAsText(page, dialogs, [IMG]);
    expect(await page.getByTestId(`active-${proposal.proposalId}`).textContent()).toContain(IMG);
    for (const path of ['/daos', `/daos/${dao.daoId}`]) {
      await page.goto(`${product.webUrl}${path}`);
      await expectShownAsText(page, dialogs, path === '/daos' ? [IMG] : [IMG, SCRIPT]);
    }
    await page.goto(`${product.webUrl}/proposals/${proposal.proposalId}`);
    await expectShownAsText(page, dialogs, [IMG, SCRIPT, JS_URL]);
    await expect(page.getByTestId('votes')).toContainText(SCRIPT, SLOW);
    await page.close();
  });

  test('shows profile names, bio and social links as text, and links only http(s) addresses', async () => {
    const safe = 'https://example.com/?q="><svg/onload=window.__xss=1>';
    await api.call('PUT', `/users/${author.id}`, {
      body: { bio: `${SCRIPT}${IMG}`, socialLinks: { website: JS_URL, [IMG]: safe, other: ` ${JS_URL}` } },
      token: author.token,
    });
    const { page, dialogs } = await watchedPage(author, `/users/${author.id}`);
    await expectShownAsText(page, dialogs, [`${IMG} ${SCRIPT}`, `${SCRIPT}${IMG}`, JS_URL, safe]);
    // the http(s) address is a link to exactly what was stored; the javascript: ones are plain text
    const links = page.getByTestId('public-profile').locator('a[target="_blank"]');
    expect(await links.count()).toBe(1);
    expect(await links.first().getAttribute('href')).toBe(safe);
    await page.goto(`${product.webUrl}/account`);
    await expectShownAsText(page, dialogs, [IMG]);
    await page.close();
  });

  test('shows mail and audit reasons with user input as text (development outbox, audit log)', async () => {
    const admin = await activeUserByApi(product.apiUrl, 'xss-admin', adminUser);
    const target = await activeUserByApi(product.apiUrl, 'xss-target', {
      ...newUser('xss-target'),
      firstName: IMG,
    });
    await api.call('POST', `/admin/users/${target.id}/suspend`, {
      body: { reason: `${IMG} ${JS_URL}` },
      token: admin.token,
      expect: 200,
    });
    const { page, dialogs } = await watchedPage(admin, '/dev/outbox');
    await expectShownAsText(page, dialogs, [`Hello ${IMG},`]);
    await page.goto(`${product.webUrl}/admin/audit`);
    await expectShownAsText(page, dialogs, [`${IMG} ${JS_URL}`]);
    await page.close();
  });
});
