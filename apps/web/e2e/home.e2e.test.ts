import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProduct } from './product';

let product: Awaited<ReturnType<typeof startProduct>>;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.stop());

describe('web app', () => {
  it('renders the home page with data fetched from the API through tRPC', async () => {
    const page = await product.browser.newPage();
    await page.goto(product.webUrl);
    await expect
      .poll(() => page.getByTestId('api-status').textContent(), { timeout: 30_000 })
      .toContain('Connected to Plenum API');
    await page.close();
  });
});
