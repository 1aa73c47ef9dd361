import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { type ActiveUser, memberUserByApi, restClient, useSession } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * A DAO's Integrations page (docs/webhooks.md): the owner adds a webhook, sees its secret once, sends a
 * test and sees the delivery land at a real receiver; an outsider gets no list.
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
  await page.getByRole('checkbox', { name: 'vote_cast' }).check();
  await page.getByRole('button', { name: 'Add webhook' }).click();
  await expect(page.getByTestId('webhook-secret')).toContainText(/whsec_[A-Za-z0-9+/=]{40,}/);
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
