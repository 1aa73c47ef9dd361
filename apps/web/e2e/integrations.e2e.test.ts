import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { type ActiveUser, memberUserByApi, restClient, useSession } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * A DAO's Integrations page and the account's storage webhooks (docs/webhooks.md, "In the web app"): the
 * owner adds a webhook, sees its secret once, sends a test and sees the delivery land at a real receiver;
 * edits, disables and enables it, rotates its secret, redelivers and deletes it; an outsider gets no
 * list; the account's Webhooks tab adds and deletes a storage webhook; both pass axe and fit at 375 px.
 */
let product: Awaited<ReturnType<typeof startProduct>>;
let owner: ActiveUser;
let outsider: ActiveUser;
let daoId: string;
const received: IncomingHttpHeaders[] = [];
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received.push(req.headers);
    res.end('ok');
  });
});

test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  // the receiver is on loopback: allowed only under the flag meant for tests
  product = await startProduct(browser, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  const api = restClient(product.apiUrl);
  [owner, outsider] = await Promise.all([
    memberUserByApi(product.apiUrl, product.webUrl, 'wh-owner'),
    memberUserByApi(product.apiUrl, product.webUrl, 'wh-outsider'),
  ]);
  daoId = (
    await api.call<{ daoId: string }>('POST', '/daos', {
      body: { name: 'Hook Guild', ownerAddress: owner.wallet.address, votingRules: { threshold: 50 } },
      token: owner.token,
    })
  ).daoId;
});
test.afterAll(async () => {
  await product?.stop();
  await new Promise((r) => receiver.close(r));
});

test('the owner adds a webhook, sees the secret once and a delivered test', async ({ page }) => {
  await useSession(page, product.webUrl, owner.token);
  await page.goto(`${product.webUrl}/daos/${daoId}`);
  await page.getByTestId('dao-integrations-link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible();
  await expect(page.getByText('No webhooks yet.')).toBeVisible();
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await page.getByLabel('Endpoint URL').fill(url);
  await page.getByRole('checkbox', { name: 'vote_cast', exact: true }).check();
  await page.getByRole('button', { name: 'Add webhook' }).click();
  await expect(secretField(page.getByTestId('webhook-secret'))).toHaveValue(/^whsec_[A-Za-z0-9+/=]{40,}$/);
  const item = page.getByTestId('webhook');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(url);
  await expect(item).toContainText('vote_cast');
  await item.getByRole('button', { name: 'Send test' }).click();
  const row = item.getByTestId('delivery');
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  await expect(row).toContainText('webhook.test');
  await expect(row.getByRole('cell', { name: 'Delivered' })).toBeVisible({ timeout: 20_000 });
  await expect(row.getByRole('cell', { name: '200', exact: true })).toBeVisible();
  expect(received).toHaveLength(1);
  expect(received[0]!['webhook-signature']).toMatch(/^v1,/);
  // after a reload the secret is gone for good
  await page.reload();
  await expect(page.getByTestId('webhook')).toHaveCount(1);
  await expect(page.getByTestId('webhook-secret')).toHaveCount(0);
});

test('an outsider sees neither the link nor the webhooks', async ({ page }) => {
  await useSession(page, product.webUrl, outsider.token);
  await page.goto(`${product.webUrl}/daos/${daoId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Hook Guild' })).toBeVisible();
  await expect(page.getByTestId('dao-integrations-link')).toHaveCount(0);
  await page.goto(`${product.webUrl}/daos/${daoId}/integrations`);
  await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible();
  await expect(page.getByTestId('query-error')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('webhook')).toHaveCount(0);
});

const secretField = (scope: Locator) => scope.getByRole('textbox', { name: 'Signing secret', exact: true });
const receiverUrl = (path: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;
const button = (scope: Locator, name: string) => scope.getByRole('button', { name, exact: true });

/** the owner's webhooks of the DAO as the API has them */
async function daoWebhooks() {
  const api = restClient(product.apiUrl);
  return (
    await api.call<{ items: { url: string; events: string[]; enabled: boolean }[] }>(
      'GET',
      `/webhooks?daoId=${daoId}`,
      { token: owner.token },
    )
  ).items;
}

test('the owner edits, disables, enables, rotates, redelivers and deletes a webhook', async ({ page }) => {
  await useSession(page, product.webUrl, owner.token);
  await page.goto(`${product.webUrl}/daos/${daoId}/integrations`);
  await page.getByLabel('Endpoint URL').fill(receiverUrl('/managed'));
  await page.getByRole('button', { name: 'Add webhook' }).click();
  const firstSecret = await secretField(page.getByTestId('webhook-secret')).inputValue();
  expect(firstSecret).toMatch(/^whsec_/);
  let item = page.getByTestId('webhook').filter({ hasText: '/managed' });
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId('webhook-events')).toContainText('proposal_submitted');

  // edit: another URL, and comment_posted in place of proposal_submitted
  await button(item, 'Edit').click();
  const dialog = page.getByRole('dialog', { name: 'Edit webhook' });
  await expect(dialog.getByLabel('Endpoint URL')).toHaveValue(receiverUrl('/managed'));
  await dialog.getByLabel('Endpoint URL').fill(receiverUrl('/edited'));
  await dialog.getByRole('checkbox', { name: 'proposal_submitted', exact: true }).uncheck();
  await dialog.getByRole('checkbox', { name: 'comment_posted', exact: true }).check();
  await button(dialog, 'Save').click();
  await expect(dialog).toHaveCount(0);
  item = page.getByTestId('webhook').filter({ hasText: '/edited' });
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId('webhook-events')).toContainText('comment_posted');
  await expect(item.getByTestId('webhook-events')).not.toContainText('proposal_submitted');
  await expect(page.getByTestId('webhook').filter({ hasText: '/managed' })).toHaveCount(0);
  const edited = (await daoWebhooks()).find((w) => w.url === receiverUrl('/edited'));
  expect(edited?.events.sort()).toEqual(['comment_posted', 'proposal_status_changed']);

  // an address the API refuses stays in the dialog, said on its field
  await button(item, 'Edit').click();
  await dialog.getByLabel('Endpoint URL').fill('ftp://example.org/hook');
  await button(dialog, 'Save').click();
  await expect(dialog.locator('[data-field-errors="url"]')).toBeVisible();
  await button(dialog, 'Cancel').click();
  await expect(dialog).toHaveCount(0);

  // disable, then enable again
  await button(item, 'Disable').click();
  await expect(item).toHaveAttribute('data-enabled', 'false');
  await expect(item.getByText('Disabled', { exact: true })).toBeVisible();
  await expect
    .poll(async () => (await daoWebhooks()).find((w) => w.url.endsWith('/edited'))?.enabled)
    .toBe(false);
  await button(item, 'Enable').click();
  await expect(item).toHaveAttribute('data-enabled', 'true');
  await expect(item.getByText('Enabled', { exact: true })).toBeVisible();

  // rotate the secret: asked first, the new one shown once and different
  await button(item, 'Rotate secret').click();
  const confirm = page.getByRole('alertdialog', { name: 'Rotate the signing secret?' });
  await button(confirm, 'Rotate secret').click();
  await expect(confirm).toHaveCount(0);
  await expect(secretField(item.getByTestId('webhook-secret'))).toHaveValue(/^whsec_/);
  expect(await secretField(item.getByTestId('webhook-secret')).inputValue()).not.toBe(firstSecret);

  // a test delivery, then the same event again from its row
  const before = received.length;
  await button(item, 'Send test').click();
  const rows = item.getByTestId('delivery');
  await expect(rows).toHaveCount(1, { timeout: 20_000 });
  await expect(rows.first()).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await button(rows.first(), 'Redeliver').click();
  await expect(rows).toHaveCount(2, { timeout: 20_000 });
  await expect(item.locator('[data-testid="delivery"][data-status="succeeded"]')).toHaveCount(2, {
    timeout: 20_000,
  });
  await expect(rows.first().getByRole('cell', { name: 'webhook.test' })).toBeVisible();
  expect(received.length - before).toBe(2);

  // delete: asked first, gone after a reload too
  await button(item, 'Delete').click();
  const ask = page.getByRole('alertdialog', { name: 'Delete this webhook?' });
  await expect(ask).toContainText(receiverUrl('/edited'));
  await button(ask, 'Delete').click();
  await expect(ask).toHaveCount(0);
  await expect(item).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('webhook').filter({ hasText: '/hook' })).toHaveCount(1);
  await expect(page.getByTestId('webhook').filter({ hasText: '/edited' })).toHaveCount(0);
  expect((await daoWebhooks()).map((w) => w.url)).toEqual([receiverUrl('/hook')]);
});

test("the account's Webhooks tab adds and deletes a storage webhook, without the DAO's", async ({ page }) => {
  await useSession(page, product.webUrl, owner.token);
  await page.goto(`${product.webUrl}/account`);
  await page.getByRole('tab', { name: 'Webhooks', exact: true }).click();
  await expect(page).toHaveURL(/\/account\?tab=webhooks$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Storage webhooks' })).toBeVisible();
  // the owner made the DAO's webhook: it belongs to the DAO's page, not here
  await expect(page.getByText('No storage webhooks yet.')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'ipfs:pin.verified', exact: true })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'vote_cast', exact: true })).toHaveCount(0);
  await page.getByLabel('Endpoint URL').fill(receiverUrl('/pins'));
  await page.getByRole('checkbox', { name: 'ipfs:pin.failed', exact: true }).uncheck();
  await page.getByRole('button', { name: 'Add webhook' }).click();
  await expect(secretField(page.getByTestId('webhook-secret'))).toHaveValue(/^whsec_/);
  const item = page.getByTestId('webhook');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(receiverUrl('/pins'));
  await expect(item.getByTestId('webhook-events')).toHaveText('ipfs:pin.verified');
  const mine = await restClient(product.apiUrl).call<{ items: { url: string; daoId: string | null }[] }>(
    'GET',
    '/webhooks',
    { token: owner.token },
  );
  expect(mine.items.filter((w) => w.daoId === null).map((w) => w.url)).toEqual([receiverUrl('/pins')]);

  await page.reload();
  await expect(page.getByTestId('webhook-secret')).toHaveCount(0);
  await button(item, 'Delete').click();
  const ask = page.getByRole('alertdialog', { name: 'Delete this webhook?' });
  await button(ask, 'Delete').click();
  await expect(item).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('No storage webhooks yet.')).toBeVisible();
  await expect(page.getByTestId('webhook')).toHaveCount(0);
});

/** no serious or critical axe violation, nothing wider than the viewport */
async function fits(page: Page, what: string) {
  // a dialog's opening animation must end before axe measures its colours
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
  );
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, what).toEqual([]);
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth, what).toBeLessThanOrEqual(clientWidth);
}

test('the Integrations page and the Webhooks tab pass axe and fit at 375 px, in English and German', async ({
  browser,
}) => {
  const api = restClient(product.apiUrl);
  const layout = await api.call<{ daoId: string }>('POST', '/daos', {
    body: { name: 'Layout Guild', ownerAddress: owner.wallet.address, votingRules: { threshold: 50 } },
    token: owner.token,
  });
  await api.call('POST', '/webhooks', {
    body: {
      url: 'https://hooks.example.org/plenum/a-rather-long-path-that-must-wrap-on-a-phone',
      events: ['proposal_submitted', 'proposal_status_changed', 'comment_posted'],
      daoId: layout.daoId,
    },
    token: owner.token,
  });
  const context = await browser.newContext({ viewport: { width: 375, height: 900 } });
  const page = await context.newPage();
  await useSession(page, product.webUrl, owner.token);
  await page.goto(`${product.webUrl}/daos/${layout.daoId}/integrations`);
  const item = page.getByTestId('webhook');
  await expect(item).toHaveCount(1);
  await expect(item.getByText('No deliveries yet.')).toBeVisible();
  await fits(page, 'Integrations at 375 px');
  await page.mouse.move(0, 0);
  await expect(page).toHaveScreenshot('integrations-375-light.png', { fullPage: true });
  await button(item, 'Edit').click();
  await expect(page.getByRole('dialog', { name: 'Edit webhook' })).toBeVisible();
  await fits(page, 'the edit dialog at 375 px');
  await page.keyboard.press('Escape');
  await button(item, 'Delete').click();
  await expect(page.getByRole('alertdialog', { name: 'Delete this webhook?' })).toBeVisible();
  await fits(page, 'the delete confirmation at 375 px');
  await page.goto(`${product.webUrl}/account?tab=webhooks`);
  await expect(page.getByRole('heading', { level: 2, name: 'Storage webhooks' })).toBeVisible();
  await expect(page.getByTestId('no-webhooks')).toBeVisible();
  await fits(page, 'the Webhooks tab at 375 px');
  await context.close();

  // in German (longer words) and dark: the same checks
  const german = await browser.newContext({
    viewport: { width: 375, height: 900 },
    colorScheme: 'dark',
    locale: 'de-DE',
  });
  await german.addCookies([{ name: 'NEXT_LOCALE', value: 'de', url: product.webUrl }]);
  const seite = await german.newPage();
  await useSession(seite, product.webUrl, owner.token);
  await seite.goto(`${product.webUrl}/daos/${layout.daoId}/integrations`);
  await expect(seite.getByRole('heading', { level: 1, name: 'Integrationen' })).toBeVisible();
  await expect(seite.locator('html')).toHaveClass(/\bdark\b/);
  const karte = seite.getByTestId('webhook');
  await expect(button(karte, 'Geheimnis erneuern')).toBeVisible();
  await expect(karte.getByText('Noch keine Zustellungen.')).toBeVisible();
  await fits(seite, 'Integrationen at 375 px, dark');
  await seite.goto(`${product.webUrl}/account?tab=webhooks`);
  await expect(seite.getByRole('heading', { level: 2, name: 'Speicher-Webhooks' })).toBeVisible();
  await expect(seite.getByRole('tab', { name: 'Webhooks', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await fits(seite, 'the Webhooks tab in German at 375 px, dark');
  await german.close();
});
