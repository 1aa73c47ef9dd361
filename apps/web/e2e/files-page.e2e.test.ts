import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { type ApiUser, activeUserByApi, linkWalletByApi, pngBytes } from './account-setup';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * The files page at Pinata's level (docs/storage.md, "In the web app"), at 1280 and 375 px: copy CID, the
 * gateway and share links, the details panel, search and sort on the server, the Metadata action that
 * reads a document and says plainly when a file is none, sizes that are never "0 bytes", full CIDs that
 * wrap without the page scrolling sideways, and a folder chosen for upload.
 */
let product: Awaited<ReturnType<typeof startProduct>>;
let user: ApiUser;
const cids: Record<string, string> = {};
const PNG = pngBytes(41);
const DOC = JSON.stringify({ name: 'Badge', description: 'a metadata document' });

async function upload(token: string, bytes: Buffer | string, name: string, type: string) {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${product.apiUrl}/ipfs/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { cid: string }).cid;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser, { STORAGE_QUOTA_BYTES: String(1_000_000) });
  user = await activeUserByApi(product.apiUrl, 'filespage');
  await linkWalletByApi(product.apiUrl, product.webUrl, user);
  const other = await activeUserByApi(product.apiUrl, 'filespage-other');
  await linkWalletByApi(product.apiUrl, product.webUrl, other);
  // oldest to newest: notes, the photo, the document, then a pin by CID with a name and meta
  cids.notes = await upload(user.token, 'plain notes, not JSON\n'.repeat(20), 'notes.txt', 'text/plain');
  cids.photo = await upload(user.token, PNG, 'Holiday_Photo.png', 'image/png');
  cids.doc = await upload(user.token, DOC, 'badge.json', 'text/plain');
  cids.report = await upload(other.token, 'the report', 'r.txt', 'text/plain');
  const res = await fetch(`${product.apiUrl}/pins`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ cid: cids.report, name: 'Quarterly report', meta: { project: 'Apollo' } }),
  });
  expect(res.status).toBe(202);
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

async function openFiles(width: number, who: ApiUser = user): Promise<Page> {
  const context = await product.browser.newContext({
    viewport: { width, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  await page.goto(`${product.webUrl}/`);
  await page.evaluate((t) => window.localStorage.setItem('plenum.session', t), who.token);
  await page.goto(`${product.webUrl}/files`);
  await expect(page.getByTestId('pin').first()).toBeVisible({ timeout: 20_000 });
  return page;
}

const row = (page: Page, cid: string) => page.locator(`[data-testid="pin"][data-cid="${cid}"]`);
const names = (page: Page) => page.getByTestId('pin-name');
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

async function noSidewaysScroll(page: Page) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(clientWidth);
}

/** the element lies within the viewport's width (nothing of it cut off to the right) */
async function withinWidth(locator: Locator, width: number) {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
}

for (const width of [1280, 375]) {
  test.describe(`the files page at ${width} px`, () => {
    test('copies a CID and a share link, links the file, and shows details with the full CID', async () => {
      const page = await openFiles(width);
      const photo = row(page, cids.photo as string);
      const copy = photo.getByTestId('copy-cid');
      await expect(copy).toHaveText('Copy CID');
      await copy.click();
      await expect(copy).toHaveText('Copied');
      expect(await clipboard(page)).toBe(cids.photo);

      await expect(photo.getByTestId('open-link')).toHaveAttribute(
        'href',
        `${product.apiUrl}/ipfs/file/${cids.photo}`,
      );
      // no public gateway configured on this server: only this API's link
      await expect(photo.getByTestId('gateway-link')).toHaveCount(0);
      await photo.getByTestId('share-link').click();
      await expect(photo.getByTestId('share-link')).toHaveText('Link copied');
      expect(await clipboard(page)).toBe(`${product.apiUrl}/ipfs/file/${cids.photo}`);

      // the CID in full, wrapped inside the card
      const cid = photo.getByTestId('pin-cid');
      await expect(cid).toHaveText(cids.photo as string);
      await withinWidth(cid, width);

      const details = photo.getByRole('button', { name: 'Details' });
      await expect(details).toHaveAttribute('aria-expanded', 'false');
      await details.click();
      const panel = photo.getByTestId('pin-details');
      await expect(panel).toContainText('Holiday_Photo.png');
      await expect(panel).toContainText('a PNG image');
      await expect(panel).toContainText('public');
      await expect(panel.getByTestId('details-size')).toContainText(`${PNG.length} bytes`);
      await expect(panel.getByTestId('details-cid')).toContainText(cids.photo as string);
      await withinWidth(panel.getByTestId('details-cid'), width);
      await expect(photo.getByRole('button', { name: 'Hide details' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );

      // a pin made by CID has no recorded size: "size unknown", never 0; its meta is in the details
      const report = row(page, cids.report as string);
      await expect(report.getByTestId('pin-facts')).toContainText('size unknown');
      await report.getByRole('button', { name: 'Details' }).click();
      await expect(report.getByTestId('details-size')).toContainText('size unknown');
      await expect(report.getByTestId('pin-details')).toContainText('project: Apollo');
      // its preview reads the real size from the API (HEAD), not "0 bytes"
      await report.getByRole('button', { name: 'Preview' }).click();
      await expect(report.getByTestId('preview-size')).toHaveText('10 bytes');

      await noSidewaysScroll(page);
      await page.context().close();
    });

    test('searches by name and metadata and sorts on the server', async () => {
      const page = await openFiles(width);
      await expect(names(page)).toHaveText([
        'Quarterly report',
        'badge.json',
        'Holiday_Photo.png',
        'notes.txt',
      ]);
      const search = page.getByRole('searchbox', { name: 'Search' });
      await search.fill('holiday');
      await expect(names(page)).toHaveText(['Holiday_Photo.png']);
      // a value of the pin's meta
      await search.fill('APOLLO');
      await expect(names(page)).toHaveText(['Quarterly report']);
      await search.fill('no such thing');
      await expect(page.getByTestId('no-pins')).toContainText('No pins match “no such thing”');
      await search.fill('');
      await expect(names(page)).toHaveCount(4);

      const sort = page.getByLabel('Sort', { exact: true });
      await sort.selectOption({ label: 'Name (A–Z)' });
      await expect(names(page)).toHaveText([
        'badge.json',
        'Holiday_Photo.png',
        'notes.txt',
        'Quarterly report',
      ]);
      await sort.selectOption({ label: 'Largest first' });
      await expect(names(page)).toHaveText([
        'notes.txt',
        'Holiday_Photo.png',
        'badge.json',
        'Quarterly report',
      ]);
      await sort.selectOption({ label: 'Oldest first' });
      await expect(names(page)).toHaveText([
        'notes.txt',
        'Holiday_Photo.png',
        'badge.json',
        'Quarterly report',
      ]);
      await noSidewaysScroll(page);
      await page.context().close();
    });

    test('the Metadata action reads a document and says plainly when a file is none', async () => {
      const page = await openFiles(width);
      // an image cannot be a metadata document: no action on it
      await expect(row(page, cids.photo as string).getByRole('button', { name: 'Metadata' })).toHaveCount(0);

      await row(page, cids.doc as string)
        .getByRole('button', { name: 'Metadata' })
        .click();
      await expect(page.getByTestId('metadata')).toContainText('"name": "Badge"');

      await row(page, cids.notes as string)
        .getByRole('button', { name: 'Metadata' })
        .click();
      await expect(page.getByTestId('not-metadata')).toContainText(
        `The file ${cids.notes} is not a metadata document`,
      );
      await expect(page.getByTestId('metadata')).toHaveCount(0);

      // any CID the person gives
      const field = page.getByLabel('CID or ipfs:// address of a metadata document');
      await field.fill(`ipfs://${cids.doc}`);
      await page.getByRole('button', { name: 'Show metadata' }).click();
      await expect(page.getByTestId('metadata')).toContainText('"description": "a metadata document"');
      await noSidewaysScroll(page);
      await page.context().close();
    });
  });
}

test('a chosen folder is uploaded as one folder: one pin named after it, of type folder, its files readable inside', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'plenum-folder-'));
  const readme = 'about the trip\n';
  const map = pngBytes(42);
  try {
    mkdirSync(path.join(dir, 'trip', 'day1'), { recursive: true });
    writeFileSync(path.join(dir, 'trip', 'readme.txt'), readme);
    writeFileSync(path.join(dir, 'trip', 'day1', 'map.png'), map);
    const page = await openFiles(1280);
    await expect(page.getByTestId('pin')).toHaveCount(4);
    await page.getByLabel('Choose a folder').setInputFiles(path.join(dir, 'trip'));
    // the server takes folders (system.info → uploads.directoryUploads): one upload, not one per file
    const item = page.locator('[data-testid="upload-item"][data-name="trip"]');
    await expect(item).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    await expect(item).toHaveAttribute('data-folder', 'true');
    await expect(page.getByTestId('upload-item')).toHaveCount(1);
    await expect(page.getByTestId('folder-one-by-one')).toHaveCount(0);
    const size = `${readme.length + map.length} bytes`;
    await expect(item.getByTestId('upload-done')).toContainText(
      `Uploaded the folder trip (2 files, ${size})`,
    );
    const cid = (await item.getByTestId('upload-done').locator('code').textContent()) ?? '';
    expect(cid).toMatch(/^bafy/);

    await expect(page.getByTestId('pin')).toHaveCount(5);
    const pin = row(page, cid);
    await expect(pin.getByTestId('pin-name')).toHaveText('trip');
    await expect(pin.getByTestId('pin-facts')).toContainText(size);
    await pin.getByRole('button', { name: 'Details' }).click();
    await expect(pin.getByTestId('pin-details')).toContainText('a folder');

    // the files are inside the folder's CID, under the folder's name
    const inside = await fetch(`${product.apiUrl}/ipfs/file/${cid}/trip/day1/map.png`);
    expect(inside.status).toBe(200);
    expect(Buffer.from(await inside.arrayBuffer()).equals(map)).toBe(true);
    await page.context().close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the usage bar reads the quota: bytes used, the share of the limit and the pins', async () => {
  // a user of its own, so the other tests' uploads do not move the figures; the product's quota is 1 MB
  const quota = await activeUserByApi(product.apiUrl, 'filespage-quota');
  await linkWalletByApi(product.apiUrl, product.webUrl, quota);
  await upload(quota.token, 'q'.repeat(250_000), 'quarter.txt', 'text/plain');
  const page = await openFiles(375, quota);
  const meter = page.getByRole('meter', { name: 'Storage used' });
  await expect(meter).toHaveAttribute('aria-valuenow', '25');
  await expect(page.getByTestId('usage')).toContainText('(25 %) · 1 pin');
  await noSidewaysScroll(page);
  // an upload from the page moves the bar without a reload
  await page.getByLabel('Choose files to upload').setInputFiles({
    name: 'half.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('h'.repeat(250_000)),
  });
  await expect(meter).toHaveAttribute('aria-valuenow', '50');
  await expect(page.getByTestId('usage')).toContainText('(50 %) · 2 pins');
  await page.context().close();
});

test('a private upload: only its owner opens it; preview and share go through signed links; made public from its details', async () => {
  const page = await openFiles(1280);
  await page.getByLabel('Who can open it').selectOption('private');
  await page.getByLabel('Choose files to upload').setInputFiles({
    name: 'secret.png',
    mimeType: 'image/png',
    buffer: pngBytes(43),
  });
  const row = page.getByTestId('pin').filter({ hasText: 'secret.png' });
  await expect(row).toHaveCount(1);
  const cid = await row.getAttribute('data-cid');
  // to anyone without credentials it is as absent as any unknown CID
  expect((await fetch(`${product.apiUrl}/ipfs/file/${cid}`)).status).toBe(404);

  await row.getByRole('button', { name: 'Details' }).click();
  await expect(row.getByTestId('details-visibility')).toContainText('private: only you');
  await expect(row.getByTestId('details-owners')).toContainText('1 (only you)');
  // the browser's <img> sends no Bearer token: the preview reads a signed link, and shows the image
  await row.getByRole('button', { name: 'Preview' }).click();
  const img = row.getByTestId('preview').locator('img');
  await expect(img).toHaveAttribute('src', /\/ipfs\/shared\//);
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0);
  // the share link works for anyone, without credentials
  await row.getByTestId('share-link').click();
  await expect(row.getByTestId('share-link')).toContainText('Link copied');
  const url = await clipboard(page);
  expect(url).toContain('/ipfs/shared/');
  const shared = await fetch(url);
  expect(shared.status).toBe(200);
  expect(Buffer.from(await shared.arrayBuffer()).equals(pngBytes(43))).toBe(true);

  await row.getByLabel('Change to').selectOption('public');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByTestId('details-visibility')).toContainText('public: anyone with the CID');
  expect((await fetch(`${product.apiUrl}/ipfs/file/${cid}`)).status).toBe(200);
  await page.context().close();
});
