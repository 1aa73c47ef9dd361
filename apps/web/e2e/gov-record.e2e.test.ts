import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { CarReader } from '@ipld/car';
import { expect, type Page, test } from '@playwright/test';
import { confirmVote, markDocument, memberUserByApi, restClient } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * A closed proposal's verifiable record on its page (docs/governance.md, "The proposal record" and "In the
 * web app"): the record's CID, the CAR download, the command that recounts it, and a voter's receipt,
 * right after voting and once the record is on the server's IPFS node.
 */
const SLOW = { timeout: 20_000 };

let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser);
  api = restClient(product.apiUrl);
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

interface RecordRead {
  recordCid: string;
  publishedAt: string | null;
  car: string;
  publicKey: string;
}
interface Receipt {
  voteId: string;
  recordCid: string;
  leaf: string;
  proof: { side: string; cid: string }[];
}

/** GET /proposals/{proposalId}/record once the record is fixed and stored (409 RECORD_NOT_READY before) */
async function publishedRecord(proposalId: string): Promise<RecordRead> {
  let record: RecordRead | null = null;
  await expect
    .poll(
      async () => {
        const res = await fetch(`${product.apiUrl}/proposals/${proposalId}/record`);
        if (res.status === 409) return 'not ready';
        record = (await res.json()) as RecordRead;
        return record.publishedAt ? 'published' : `${res.status} not published`;
      },
      { timeout: 60_000 },
    )
    .toBe('published');
  return record as unknown as RecordRead;
}

/** the page is no wider than the screen: long CIDs and the command wrap */
async function noSidewaysScroll(page: Page) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

test('a closed proposal shows its record, the CAR, the recount command and the voter’s receipt', async () => {
  test.setTimeout(180_000);
  const [owner, voter] = await Promise.all([
    memberUserByApi(product.apiUrl, product.webUrl, 'record-owner'),
    memberUserByApi(product.apiUrl, product.webUrl, 'record-voter'),
  ]);
  const { daoId } = await api.call<{ daoId: string }>('POST', '/daos', {
    body: { name: 'Ledger Guild', ownerAddress: owner.wallet.address, votingRules: { threshold: 50 } },
    token: owner.token,
  });
  await api.call('POST', `/daos/${daoId}/members`, {
    body: { memberAddress: voter.wallet.address },
    token: owner.token,
  });
  // 54 seconds of voting: time to vote through the page on a busy machine, then the server closes it
  const { proposalId } = await api.call<{ proposalId: string }>('POST', '/proposals', {
    body: {
      daoId,
      title: 'Audit the ledger',
      creatorAddress: owner.wallet.address,
      votingDurationHours: 0.015,
    },
    token: owner.token,
  });

  const context = await product.browser.newContext({
    viewport: { width: 375, height: 800 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  await page.goto(`${product.webUrl}/`);
  await page.evaluate((t) => window.localStorage.setItem('plenum.session', t), voter.token);
  await page.goto(`${product.webUrl}/proposals/${proposalId}`);

  // right after voting: the receipt the cast returned
  const form = page.getByTestId('vote-form');
  await form.getByLabel('For', { exact: true }).check(SLOW);
  await form.getByRole('button', { name: 'Cast vote' }).click();
  await confirmVote(page);
  await expect(page.getByTestId('cast-receipt')).toContainText('Your receipt: bafy', SLOW);
  const castReceipt = (await page.getByTestId('cast-receipt-cid').textContent()) ?? '';
  const vote = await api.call<{ voteId: string }>(
    'GET',
    `/votes/proposal/${proposalId}/voter/${voter.wallet.address}`,
  );
  // open: no record is fixed, so none is shown
  await expect(page.getByTestId('record')).toHaveCount(0);
  await expect(page.getByTestId('vote-receipt')).toHaveCount(0);

  // it closes while the page is open: the record appears without a reload
  const sameDocument = await markDocument(page);
  await expect(page.getByTestId('proposal-status')).toHaveText('Passed', { timeout: 90_000 });
  const record = await publishedRecord(proposalId);
  await expect(page.getByTestId('record-cid')).toHaveText(record.recordCid, SLOW);
  await expect(page.getByTestId('record')).toContainText(`Verifiable record: ${record.recordCid}`);
  await expect(page.getByTestId('record-stored')).toHaveAttribute('data-published', 'true', SLOW);
  expect(await sameDocument()).toBe(true);
  await noSidewaysScroll(page);

  // the download: the API's CAR, whose one root is the record's CID
  const carLink = page.getByTestId('record-car');
  await expect(carLink).toHaveAttribute('href', `${product.apiUrl}/proposals/${proposalId}/record.car`);
  // the API's link is absolute, on its own public URL (API_URL), with the same path
  expect(new URL(record.car).pathname).toBe(`/proposals/${proposalId}/record.car`);
  await expect(carLink).toHaveAttribute('download', `proposal-${proposalId}-record.car`);
  const car = await page.request.get((await carLink.getAttribute('href')) ?? '');
  expect(car.status()).toBe(200);
  expect(car.headers()['content-type']).toMatch(/^application\/vnd\.ipld\.car/);
  const reader = await CarReader.fromBytes(new Uint8Array(await car.body()));
  expect((await reader.getRoots()).map(String)).toEqual([record.recordCid]);
  expect(await reader.has((await reader.getRoots())[0]!)).toBe(true);

  // the command names the downloaded file and pins the server's key; the button copies it
  const command = `npm run verify -- proposal-${proposalId}-record.car --key ${record.publicKey}`;
  await expect(page.getByTestId('record-command')).toHaveText(command);
  await page.getByTestId('copy-record-command').click();
  await expect(page.getByTestId('copy-record-command')).toHaveAttribute('data-copied', 'true');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
  await page.getByTestId('copy-record-cid').click();
  await expect(page.getByTestId('copy-record-cid')).toHaveAttribute('data-copied', 'true');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(record.recordCid);

  // my vote's receipt: the leaf the API proves, the one the cast returned, saved as the API's JSON
  const receipt = await api.call<Receipt>('GET', `/votes/${vote.voteId}/receipt`);
  expect(receipt.recordCid).toBe(record.recordCid);
  expect(receipt.leaf).toBe(castReceipt);
  const yours = page.getByTestId('vote-receipt');
  await yours.getByText('Receipt', { exact: true }).click();
  await expect(yours.getByTestId('receipt-leaf')).toHaveText(receipt.leaf, SLOW);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    yours.getByTestId('receipt-download').click(),
  ]);
  expect(download.suggestedFilename()).toBe(`receipt-${vote.voteId}.json`);
  expect(JSON.parse(await readFile((await download.path()) ?? '', 'utf8'))).toEqual(receipt);
  await noSidewaysScroll(page);
  // what the page offers works: the command, run on the downloaded CAR and receipt, says VERIFIED
  const dir = await mkdtemp(path.join(tmpdir(), 'plenum-record-'));
  try {
    const carFile = path.join(dir, `proposal-${proposalId}-record.car`);
    const receiptFile = path.join(dir, download.suggestedFilename());
    await writeFile(carFile, await car.body());
    await download.saveAs(receiptFile);
    const args = command.replace(/^npm run verify -- /, '').split(' ');
    args[0] = carFile;
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', '-s', 'verify', '--', ...args, '--receipt', receiptFile],
      {
        cwd: path.join(import.meta.dirname, '../../..'),
      },
    );
    expect(stdout).toContain(record.recordCid);
    expect(stdout).toContain('VERIFIED, the receipt is in the record');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  // the record box and the opened receipt pass the checks the other pages pass (e2e/ui-pages.e2e.test.ts)
  const { violations } = await new AxeBuilder({ page })
    .include('[data-testid="record"]')
    .include('[data-testid="vote-box"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // and the same after a reload
  await page.reload();
  await expect(page.getByTestId('record-cid')).toHaveText(record.recordCid, SLOW);
  await page.getByTestId('vote-receipt').getByText('Receipt', { exact: true }).click();
  await expect(page.getByTestId('receipt-leaf')).toHaveText(receipt.leaf, SLOW);
  await context.close();

  // in German
  const german = await product.browser.newContext({ locale: 'en-US' });
  await german.addCookies([{ name: 'NEXT_LOCALE', value: 'de', url: product.webUrl }]);
  const de = await german.newPage();
  await de.goto(`${product.webUrl}/proposals/${proposalId}`);
  await expect(de.getByTestId('record')).toContainText(`Überprüfbares Protokoll: ${record.recordCid}`, SLOW);
  await expect(de.getByTestId('record-car')).toHaveText('Protokoll herunterladen (CAR)');
  await expect(de.getByTestId('record-stored')).toContainText(
    'auf dem IPFS-Knoten dieses Servers gespeichert',
  );
  await german.close();
});

test('an open proposal shows no record, and its record route says it is not ready', async () => {
  const owner = await memberUserByApi(product.apiUrl, product.webUrl, 'record-open');
  const { daoId } = await api.call<{ daoId: string }>('POST', '/daos', {
    body: { name: 'Open Guild', ownerAddress: owner.wallet.address, votingRules: { threshold: 50 } },
    token: owner.token,
  });
  const { proposalId } = await api.call<{ proposalId: string }>('POST', '/proposals', {
    body: { daoId, title: 'Still open', creatorAddress: owner.wallet.address, votingDurationHours: 2 },
    token: owner.token,
  });
  const page = await product.browser.newPage();
  await page.goto(`${product.webUrl}/proposals/${proposalId}`);
  await expect(page.getByTestId('proposal-status')).toHaveText('Active', SLOW);
  await expect(page.locator('#results-heading')).toBeVisible();
  await expect(page.getByTestId('record')).toHaveCount(0);
  const res = await fetch(`${product.apiUrl}/proposals/${proposalId}/record`);
  expect(res.status).toBe(409);
  expect(await res.json()).toMatchObject({ code: 'CONFLICT', reason: 'RECORD_NOT_READY' });
  await page.close();
});
