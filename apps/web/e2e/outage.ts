import { expect, type Page } from '@playwright/test';

/**
 * Cuts a page off the API (every HTTP request to its origin fails as a refused connection; the live
 * WebSocket, which Playwright's routes do not see, stays up) until the returned function brings it back.
 */
export async function cutApi(page: Page, apiUrl: string) {
  const pattern = `${apiUrl}/**`;
  await page.route(pattern, (route) => route.abort('connectionrefused'));
  return () => page.unroute(pattern);
}

/**
 * The page's own reads, not the server's: its HTML comes without data (the cookie of lib/prefetch.tsx),
 * so what a browser does when its reads fail or hang is what the test sees.
 */
export async function withoutServerData(page: Page, webUrl: string) {
  await page.context().addCookies([{ name: 'plenum-ssr', value: '0', url: webUrl }]);
}

/** a retry under load may take a few rounds of backoff: generous on purpose */
const RECOVERY = { timeout: 60_000 };

/**
 * The page's reads failed: an inline error with "Try again" shows, and none of the empty states that
 * would claim there is nothing (`emptyTexts`) is on the page while the data is unknown.
 */
export async function expectOutage(page: Page, emptyTexts: string[]) {
  const error = page.getByTestId('query-error').first();
  await expect(error).toContainText('The server could not be reached', RECOVERY);
  await expect(error.getByRole('button', { name: 'Try again', exact: true })).toBeVisible();
  // the outage outlasts the first read's retries: the query has settled in its error (no attempt under
  // way), so what brings the page back is the polling of a failed read, not a retry still pending
  await expect(error).not.toContainText('Trying again…', RECOVERY);
  for (const text of emptyTexts) await expect(page.getByText(text, { exact: false })).toHaveCount(0);
}

/** The API is back: with no click and no reload the page shows `content` and no error any more. */
export async function expectRecovered(page: Page, content: ReturnType<Page['getByText']>) {
  await expect(content).toBeVisible(RECOVERY);
  await expect(page.getByTestId('query-error')).toHaveCount(0, RECOVERY);
}
