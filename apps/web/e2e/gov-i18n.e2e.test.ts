import { expect, type Locator, type Page, test } from '@playwright/test';
import { type ActiveUser, memberUserByApi, restClient, useSession } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * The governance pages in German: a member whose language preference is German sees the DAO page, a
 * proposal page with its ballot and the new-proposal form in German, with none of the English labels of
 * the ballots and forms left over; the results card and the votes list speak German too.
 */
const SLOW = { timeout: 20_000 };

let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let owner: ActiveUser;
let daoId: string;
let proposalId: string;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser);
  api = restClient(product.apiUrl);
  owner = await memberUserByApi(product.apiUrl, product.webUrl, 'gi-owner');
  const me = await api.call<{ user: { id: string } }>('GET', '/auth/me', { token: owner.token });
  await api.call('PUT', `/users/${me.user.id}/preferences`, { body: { language: 'de' }, token: owner.token });
  daoId = (
    await api.call<{ daoId: string }>('POST', '/daos', {
      body: {
        name: 'Hafenrat',
        ownerAddress: owner.wallet.address,
        votingRules: { threshold: 60, quorum: 50 },
      },
      token: owner.token,
    })
  ).daoId;
  proposalId = (
    await api.call<{ proposalId: string }>('POST', '/proposals', {
      body: {
        daoId,
        title: 'Neuer Kran',
        creatorAddress: owner.wallet.address,
        votingDurationHours: 48,
        votingSystem: 'ranked-choice',
        votingOptions: ['Nord', 'Süd', 'West'],
      },
      token: owner.token,
    })
  ).proposalId;
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

async function germanPage(): Promise<Page> {
  const context = await product.browser.newContext({ locale: 'en-US' });
  await context.addCookies([{ name: 'NEXT_LOCALE', value: 'de', url: product.webUrl }]);
  const page = await context.newPage();
  await useSession(page, product.webUrl, owner.token);
  return page;
}

/** English words of the ballots and forms that must not survive in German */
const ENGLISH = [
  'Voting system',
  'Voting options',
  'Add option',
  'Submit proposal',
  'Voting duration',
  'Start time',
  'Proposal data',
  'Your choice',
  'Rank the options',
  'Not ranked',
  'Cast vote',
  'Comment (optional)',
  'Members (',
  'Add member',
  'Threshold',
  'Ends in',
  'Single choice',
  'Ranked choice',
];

async function noEnglish(area: Locator) {
  const text = (await area.textContent()) ?? '';
  for (const phrase of ENGLISH) expect(text, `"${phrase}" is still English`).not.toContain(phrase);
}

test.describe('governance in German', () => {
  test('the DAO page: header, rules, members and the owner’s forms', async () => {
    const page = await germanPage();
    await page.goto(`${product.webUrl}/daos/${daoId}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByTestId('rules-summary')).toContainText('Schwelle 60 %', SLOW);
    await expect(page.getByTestId('rules-summary')).toContainText('Quorum 50 %');
    await expect(page.getByRole('link', { name: 'Neuer Vorschlag' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Mitglieder (1)' })).toBeVisible();
    await expect(page.getByLabel('Adresse des neuen Mitglieds')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Mitglied hinzufügen' })).toBeVisible();
    await expect(page.getByTestId('dao-rules')).toContainText('des entschiedenen Gewichts');
    await expect(page.getByRole('button', { name: 'DAO deaktivieren' })).toBeVisible();
    // the shared schema's own message, in German
    await page.getByLabel('Adresse des neuen Mitglieds').fill('0x123');
    await page.getByRole('button', { name: 'Mitglied hinzufügen' }).click();
    await expect(page.locator('[data-field-errors="memberAddress"]')).toContainText(
      'muss 0x gefolgt von 40 Hexadezimalzeichen sein',
    );
    await expect(page.getByTestId('form-error')).toContainText('Bitte korrigieren Sie');
    await noEnglish(page.getByTestId('dao-header'));
    await noEnglish(page.getByRole('region', { name: 'Mitglieder (1)' }));
    await noEnglish(page.getByTestId('dao-rules'));
    await page.context().close();
  });

  test('a ranked-choice proposal: German ballot, countdown and voting system', async () => {
    const page = await germanPage();
    await page.goto(`${product.webUrl}/proposals/${proposalId}`);
    const ballot = page.getByTestId('ballot');
    await expect(ballot).toContainText('Ihre Wahl', SLOW);
    await expect(ballot).toContainText('Ordnen Sie die Optionen');
    await expect(page.getByRole('button', { name: 'Nord einreihen' })).toBeVisible();
    await expect(page.getByTestId('voting-system')).toContainText('Rangfolgewahl');
    await expect(page.getByTestId('voting-power')).toContainText('Ihr Stimmgewicht: Gewicht 1');
    // the countdown in German units ("Endet in 1 T, 23 Std. …"), no English "1d 23h"
    await expect(page.getByTestId('countdown')).toContainText(/Endet in \d+ T/);
    await page.getByRole('button', { name: 'Nord einreihen' }).click();
    await expect(page.getByRole('button', { name: 'Nord nach unten' })).toBeVisible();
    // a ballot error in German: nothing ranked
    await page.getByRole('button', { name: 'Nord aus der Rangfolge nehmen' }).click();
    await page.getByRole('button', { name: 'Stimme abgeben' }).click();
    await expect(ballot.locator('[data-field-errors="choice"]')).toContainText(
      'Reihen Sie mindestens eine Option ein',
    );
    await noEnglish(page.getByTestId('vote-form'));
    await noEnglish(page.locator('header').filter({ has: page.getByTestId('countdown') }));
    await page.context().close();
  });

  test('the results card and the votes list: German words and numbers', async () => {
    const page = await germanPage();
    await page.goto(`${product.webUrl}/proposals/${proposalId}`);
    const results = page.getByRole('region', { name: 'Ergebnisse' });
    await expect(results).toContainText('Beteiligung', SLOW);
    await expect(results).toContainText('Quorum von 50 % noch nicht erreicht.');
    for (const english of ['Participation', 'Quorum of', 'weight 0', 'votes']) {
      expect(await results.textContent(), `"${english}" is still English`).not.toContain(english);
    }
    await page.getByTestId('votes-tab').click();
    await expect(page.getByTestId('votes-tab')).toContainText('Stimmen (0)');
    await expect(page.getByText('Noch keine Stimmen.')).toBeVisible();
    await expect(page.getByLabel('Sortierung')).toBeVisible();
    await page.context().close();
  });

  test('the new-proposal form: German labels, hints and field errors', async () => {
    const page = await germanPage();
    await page.goto(`${product.webUrl}/daos/${daoId}/proposals/new`);
    const form = page.getByRole('form', { name: 'Neuer Vorschlag' });
    await expect(form).toBeVisible(SLOW);
    await expect(form.getByLabel('Titel', { exact: true })).toBeVisible();
    await expect(form.getByRole('group', { name: 'Abstimmungsverfahren' })).toBeVisible();
    await expect(form.getByRole('group', { name: 'Abstimmungsoptionen' })).toBeVisible();
    await expect(form.getByRole('button', { name: 'Option hinzufügen' })).toBeVisible();
    await expect(form.getByLabel('Daten des Vorschlags (JSON, optional)')).toBeVisible();
    await form.getByLabel('Dauer der Abstimmung (Stunden)').fill('');
    await form.getByRole('button', { name: 'Vorschlag einreichen' }).click();
    await expect(page.getByTestId('form-error')).toContainText('Bitte');
    await expect(form.locator('[data-field-errors="title"]')).toHaveText('Pflichtfeld');
    await noEnglish(form);
    await page.context().close();
  });
});
