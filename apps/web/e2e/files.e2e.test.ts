import { expect, type Page, test } from '@playwright/test';
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

/** drops a file on the drop zone the way a browser does: a `drop` event carrying a DataTransfer */
async function dropFile(page: Page, name: string, type: string, bytes: Buffer) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, type, b64 }) => {
      const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bin], name, { type }));
      return dt;
    },
    { name, type, b64: bytes.toString('base64') },
  );
  await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer });
}

test.describe('files in the browser', () => {
  test('uploads a PNG by drag and drop, lists it as pinned, previews it and unpins it', async () => {
    const user = await activeUserByApi(product.apiUrl, 'files');
    const wallet = await linkWalletByApi(product.apiUrl, product.webUrl, user);
    const page = await signedInPage(product, user, '/files');
    await expect(page.getByTestId('no-pins')).toHaveCount(1, { timeout: 20_000 });

    await dropFile(page, 'pixel.png', 'image/png', pngBytes(1));
    const done = await textOf(page, 'upload-done');
    expect(done).toContain('pixel.png');
    expect(done).toContain('PNG image');
    const cid = (await page.getByTestId('upload-done').locator('code').textContent()) ?? '';
    expect(cid).toMatch(/^bafk|^bafy/);

    // listed, as the API records it for the caller's wallet
    const pin = page.locator(`[data-testid="pin"][data-cid="${cid}"]`);
    await pin.waitFor();
    expect(await pin.getAttribute('data-status')).toBe('pinned');
    // with the file's metadata: its name as uploaded
    expect(await pin.textContent()).toContain('pixel.png');
    const listed = await apiGet(product.apiUrl, `/pins?cid=${cid}`, user.token);
    expect((listed.body.results as { pin: { cid: string } }[])[0]?.pin.cid).toBe(cid);
    expect(wallet.address).toMatch(/^0x/);

    // previewed through an <img> of the API's file URL, decoded by the browser
    await pin.getByRole('button', { name: 'Preview' }).click();
    const img = pin.getByRole('img', { name: `Preview of ${cid}` });
    await img.waitFor();
    expect(await img.getAttribute('src')).toBe(`${product.apiUrl}/ipfs/file/${cid}`);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(8);

    await pin.getByRole('button', { name: 'Unpin' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Unpin' }).click();
    await pin.waitFor({ state: 'detached' });
    expect(await page.getByTestId('no-pins').textContent()).toContain('No pins yet');
    expect((await apiGet(product.apiUrl, `/pins?cid=${cid}`, user.token)).body.count).toBe(0);
    await page.close();
  });

  test('says readably why a file was refused: a type not allowed (415) and no linked wallet (403)', async () => {
    const user = await activeUserByApi(product.apiUrl, 'refused');
    const page = await signedInPage(product, user, '/files');
    expect(await textOf(page, 'wallet-required')).toContain('link a wallet');

    // without a wallet the server refuses any write
    await page.getByLabel('Choose files to upload').setInputFiles({
      name: 'pixel.png',
      mimeType: 'image/png',
      buffer: pngBytes(2),
    });
    const noWallet = await textOf(page, 'upload-failed');
    expect(noWallet).toContain('Storing files needs a linked wallet');
    expect(noWallet).not.toContain('{');

    await linkWalletByApi(product.apiUrl, product.webUrl, user);
    // HTML named .png and declared image/png: the server goes by the bytes
    await page.getByLabel('Choose files to upload').setInputFiles({
      name: 'innocent.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
    });
    await expect(
      page.locator('[data-testid="upload-item"][data-name="innocent.png"]').getByTestId('upload-failed'),
    ).toHaveText(/This is a web page \(HTML\)/, { timeout: 20_000 });
    expect(await page.getByTestId('pin').count()).toBe(0);
    await page.close();
  });

  test('pins by CID, shows the metadata of a JSON document, and creates and revokes an access token (Account page)', async () => {
    const user = await activeUserByApi(product.apiUrl, 'pinner');
    await linkWalletByApi(product.apiUrl, product.webUrl, user);
    // a metadata document uploaded by someone else, whose CID this user pins
    const other = await activeUserByApi(product.apiUrl, 'author');
    await linkWalletByApi(product.apiUrl, product.webUrl, other);
    const upload = async (blob: Blob, name: string) => {
      const form = new FormData();
      form.append('file', blob, name);
      const res = await fetch(`${product.apiUrl}/ipfs/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other.token}` },
        body: form,
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { cid: string }).cid;
    };
    const imageCid = await upload(
      new Blob([new Uint8Array(pngBytes(3))], { type: 'image/png' }),
      'badge.png',
    );
    const doc = JSON.stringify({ name: 'Badge', image: `ipfs://${imageCid}` });
    const cid = await upload(new Blob([doc], { type: 'text/plain' }), 'badge.json');

    const page = await signedInPage(product, user, '/files');
    await page.getByLabel('CID', { exact: true }).fill(cid);
    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    expect(await textOf(page, 'pinned-cid')).toContain('Pin recorded');
    const pin = page.locator(`[data-testid="pin"][data-cid="${cid}"]`);
    await expect(pin).toHaveAttribute('data-status', 'pinned', { timeout: 30_000 });

    await pin.getByRole('button', { name: 'Metadata' }).click();
    const shown = await textOf(page, 'metadata');
    expect(shown).toContain('"name": "Badge"');
    // the ipfs:// image is resolved to a URL (this API's file path, as no gateway is configured)
    expect(shown).toContain(`/ipfs/file/${imageCid}`);
    expect(shown).not.toContain('ipfs://');
    expect(await page.getByRole('link', { name: new RegExp(imageCid) }).count()).toBe(1);

    await page.goto(`${product.webUrl}/account?tab=tokens`);
    await page.getByLabel('Token name').fill('kubo at home');
    await page.getByRole('button', { name: 'Create token' }).click();
    expect(await textOf(page, 'created-token')).toContain('shown only once');
    const token = await page.getByLabel('New access token').inputValue();
    expect(token).toMatch(/^plm_/);
    expect((await apiGet(product.apiUrl, '/pins', token)).status).toBe(200);
    expect(await textOf(page, 'tokens')).toContain('kubo at home');
    await page.getByRole('button', { name: 'Revoke kubo at home' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByTestId('tokens').waitFor({ state: 'detached' });
    expect((await apiGet(product.apiUrl, '/pins', token)).status).toBe(401);
    await page.close();
  });
});
