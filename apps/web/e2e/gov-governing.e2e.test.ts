import { expect, type Page, test } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type ApiUser, activeUserByApi } from './account-setup';
import { newUser } from './flows';
import { type ActiveUser, memberUserByApi, restClient, useSession } from './governance-api';
import { HOOK_TIMEOUT, startProduct } from './product';

/**
 * Governing a DAO over time in the browser (docs/governance.md, "In the web app"): the settings page
 * (rules with their note, history), roles, the ownership transfer from both sides, cancelling and editing
 * a proposal, members from a pasted list, the DAO search and an admin's rejection. Everything runs twice:
 * at 1280 px in English and at 375 px in German (the browser's language, no choice stored).
 */
const SLOW = { timeout: 20_000 };
const admin = newUser('gg-admin');

let product: Awaited<ReturnType<typeof startProduct>>;
let api: ReturnType<typeof restClient>;
let boss: ApiUser;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(HOOK_TIMEOUT);
  product = await startProduct(browser, { ADMIN_EMAILS: admin.email, DAO_APPROVAL_REQUIRED: 'true' });
  api = restClient(product.apiUrl);
  boss = await activeUserByApi(product.apiUrl, 'gg-admin', admin);
});
test.afterAll(async () => {
  test.setTimeout(HOOK_TIMEOUT);
  await product?.stop();
});

const WORDS = {
  en: {
    name: 'Name',
    threshold: 'Threshold (%)',
    saveSettings: 'Save settings',
    grantForm: 'Grant a role',
    address: 'Address',
    role: 'Role',
    moderator: 'Moderator',
    grant: 'Grant role',
    removeRole: (address: string) => `Remove the role of ${address}`,
    removeTitle: 'Remove this role?',
    remove: 'Remove',
    keep: 'Cancel',
    transferForm: 'Transfer ownership',
    newOwner: "New owner's address",
    startTransfer: 'Start transfer',
    withdraw: 'Withdraw transfer',
    accept: 'Accept ownership',
    settings: 'Settings',
    bulkSummary: 'Add several members at once',
    addresses: 'Addresses',
    addAll: 'Add these members',
    cancel: 'Cancel proposal',
    cancelledTab: 'Cancelled',
    cancelTitle: (title: string) => `Cancel “${title}”?`,
    cancelReason: 'Reason (optional, shown to everyone)',
    stops: 'Voting stops at once',
    edit: 'Edit',
    title: 'Title',
    saveChanges: 'Save changes',
    changes: 'Changes to this proposal',
    search: 'Search DAOs',
    next: 'Next',
    reject: (name: string) => `Reject ${name}`,
    rejectTitle: (name: string) => `Reject ${name}?`,
    rejectReason: 'Reason (required, sent to the owner)',
    rejectConfirm: 'Reject DAO',
    giveReason: 'Give a reason.',
  },
  de: {
    name: 'Name',
    threshold: 'Schwelle (%)',
    saveSettings: 'Einstellungen speichern',
    grantForm: 'Rolle vergeben',
    address: 'Adresse',
    role: 'Rolle',
    moderator: 'Moderator',
    grant: 'Rolle vergeben',
    removeRole: (address: string) => `Rolle von ${address} entfernen`,
    removeTitle: 'Diese Rolle entfernen?',
    remove: 'Entfernen',
    keep: 'Abbrechen',
    transferForm: 'Eigentum übertragen',
    newOwner: 'Adresse des neuen Eigentümers',
    startTransfer: 'Übertragung starten',
    withdraw: 'Übertragung zurückziehen',
    accept: 'Eigentum annehmen',
    settings: 'Einstellungen',
    bulkSummary: 'Mehrere Mitglieder auf einmal hinzufügen',
    addresses: 'Adressen',
    addAll: 'Diese Mitglieder hinzufügen',
    cancel: 'Vorschlag abbrechen',
    cancelledTab: 'Abgebrochen',
    cancelTitle: (title: string) => `„${title}“ abbrechen?`,
    cancelReason: 'Grund (optional, für alle sichtbar)',
    stops: 'Die Abstimmung endet sofort',
    edit: 'Bearbeiten',
    title: 'Titel',
    saveChanges: 'Änderungen speichern',
    changes: 'Änderungen an diesem Vorschlag',
    search: 'DAOs suchen',
    next: 'Weiter',
    reject: (name: string) => `${name} ablehnen`,
    rejectTitle: (name: string) => `${name} ablehnen?`,
    rejectReason: 'Grund (erforderlich, wird dem Eigentümer geschickt)',
    rejectConfirm: 'DAO ablehnen',
    giveReason: 'Geben Sie einen Grund an.',
  },
};

const RUNS = [
  { width: 1280, lang: 'en' as const },
  { width: 375, lang: 'de' as const },
];

/** nothing wider than the window: no sideways scrolling at 375 px */
async function fitsWidth(page: Page) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

for (const { width, lang } of RUNS) {
  const w = WORDS[lang];
  test.describe(`governing over time at ${width} px in ${lang === 'en' ? 'English' : 'German'}`, () => {
    // each test goes on from the DAO, roles and members the ones before it made
    test.describe.configure({ mode: 'serial' });

    let owner: ActiveUser;
    let other: ActiveUser;
    let daoId: string;
    const daoName = `Harbour ${lang} ${Date.now().toString(36)}`;

    /** a page of `user` in this run's width and language */
    async function pageAs(user: ActiveUser | ApiUser | null, path: string) {
      const context = await product.browser.newContext({
        viewport: { width, height: 900 },
        locale: lang === 'en' ? 'en-US' : 'de-DE',
      });
      const page = await context.newPage();
      await useSession(page, product.webUrl, user?.token ?? null);
      await page.goto(`${product.webUrl}${path}`);
      return page;
    }

    async function proposal(title: string, startHours?: number) {
      const p = await api.call<{ proposalId: string }>('POST', '/proposals', {
        body: {
          daoId,
          title,
          creatorAddress: owner.wallet.address,
          votingDurationHours: 24,
          ...(startHours ? { startTime: new Date(Date.now() + startHours * 3_600_000).toISOString() } : {}),
        },
        token: owner.token,
      });
      return p.proposalId;
    }

    test.beforeAll(async () => {
      test.setTimeout(HOOK_TIMEOUT);
      [owner, other] = await Promise.all([
        memberUserByApi(product.apiUrl, product.webUrl, `gg-owner-${lang}`),
        memberUserByApi(product.apiUrl, product.webUrl, `gg-other-${lang}`),
      ]);
      const dao = await api.call<{ daoId: string }>('POST', '/daos', {
        body: { name: daoName, ownerAddress: owner.wallet.address, votingRules: { threshold: 50 } },
        token: owner.token,
      });
      daoId = dao.daoId;
      await api.call('POST', `/admin/daos/${daoId}/approve`, { token: boss.token, expect: 200 });
    });

    test('edits name and rules on the settings page, with the note, and shows the history', async () => {
      const page = await pageAs(owner, `/daos/${daoId}`);
      await page.getByTestId('dao-settings-link').click();
      await page.waitForURL(/\/settings$/);
      const form = page.getByTestId('settings-form');
      await expect(form.getByTestId('rules-apply-note')).toBeVisible(SLOW);
      // the history has loaded (the approval may be in it already): the edit comes on top
      await expect(page.getByTestId('history').or(page.getByTestId('history-empty'))).toBeVisible(SLOW);
      await form.getByLabel(w.name, { exact: true }).fill(`${daoName} renamed`);
      await form.getByLabel(w.threshold, { exact: true }).fill('60');
      await form.getByRole('button', { name: w.saveSettings, exact: true }).click();
      await expect(page.getByTestId('settings-notice')).toBeVisible(SLOW);
      // newest first: the edit, one entry with both fields, by the owner's wallet
      const entry = page.getByTestId('history-entry').first();
      await expect(entry.locator('[data-field$="threshold"]')).toContainText('50 → 60', SLOW);
      await expect(entry.locator('[data-field="name"]')).toContainText(`${daoName} renamed`);
      await expect(entry.locator(`[data-address="${owner.wallet.address}"]`)).toHaveCount(1);
      const dao = await api.call<{ name: string; votingRules: { threshold: number } }>(
        'GET',
        `/daos/${daoId}`,
      );
      expect(dao.name).toBe(`${daoName} renamed`);
      expect(dao.votingRules.threshold).toBe(60);
      await fitsWidth(page);
      await page.context().close();
    });

    test('adds members from a pasted list and says what became of each', async () => {
      const page = await pageAs(owner, `/daos/${daoId}`);
      const fresh = privateKeyToAccount(generatePrivateKey()).address;
      const bulk = page.getByTestId('bulk-members');
      await bulk.getByText(w.bulkSummary, { exact: true }).click();
      await bulk
        .getByLabel(w.addresses, { exact: true })
        .fill(`${other.wallet.address}, ${fresh}\nnope\n${owner.wallet.address}\n${fresh}`);
      await bulk.getByRole('button', { name: w.addAll, exact: true }).click();
      const result = page.getByTestId('bulk-result');
      await expect(result).toBeVisible(SLOW);
      await expect(result.getByTestId('bulk-added')).toContainText(other.wallet.address);
      await expect(result.getByTestId('bulk-added')).toContainText(fresh);
      await expect(result.getByTestId('bulk-already')).toContainText(owner.wallet.address);
      await expect(result.locator('[data-reason="INVALID_ADDRESS"]')).toContainText('nope');
      await expect(result.locator('[data-reason="DUPLICATE"]')).toHaveCount(1);
      await expect(page.getByTestId('members').locator(`[data-address="${fresh}"]`)).toHaveCount(1, SLOW);
      await fitsWidth(page);
      await page.context().close();
    });

    test('a moderator granted on the roles section may cancel; the confirm says what happens', async () => {
      const title = `Close the pier ${lang}`;
      const proposalId = await proposal(title);
      // before the role: the other member's power is read, and it shows no Cancel
      const before = await pageAs(other, `/proposals/${proposalId}`);
      await expect(
        before.locator(`[data-testid="voting-power"][data-address="${other.wallet.address}"]`),
      ).toHaveCount(1, SLOW);
      await expect(before.getByTestId('proposal-actions')).toHaveCount(0);
      await before.context().close();

      const settings = await pageAs(owner, `/daos/${daoId}/settings`);
      const grant = settings.getByRole('form', { name: w.grantForm, exact: true });
      await grant.getByLabel(w.address, { exact: true }).fill(other.wallet.address);
      await grant.getByLabel(w.role, { exact: true }).selectOption('moderator');
      await grant.getByRole('button', { name: w.grant, exact: true }).click();
      const role = settings.locator(
        `[data-testid="role-entry"][data-role-address="${other.wallet.address}"]`,
      );
      await expect(role).toHaveAttribute('data-role', 'moderator', SLOW);
      await expect(role).toContainText(w.moderator);
      await fitsWidth(settings);
      // a role is removed only after a confirm that names the address and the role; Cancel keeps it
      const stray = privateKeyToAccount(generatePrivateKey()).address;
      await grant.getByLabel(w.address, { exact: true }).fill(stray);
      await grant.getByLabel(w.role, { exact: true }).selectOption('author');
      await grant.getByRole('button', { name: w.grant, exact: true }).click();
      const strayRole = settings.locator(`[data-testid="role-entry"][data-role-address="${stray}"]`);
      await expect(strayRole).toHaveAttribute('data-role', 'author', SLOW);
      await strayRole.getByRole('button', { name: w.removeRole(stray), exact: true }).click();
      const confirm = settings.getByRole('alertdialog', { name: w.removeTitle, exact: true });
      await expect(confirm.getByTestId('role-remove-consequences')).toContainText(stray);
      await confirm.getByRole('button', { name: w.keep, exact: true }).click();
      await expect(confirm).toHaveCount(0);
      await expect(strayRole).toHaveCount(1);
      await strayRole.getByRole('button', { name: w.removeRole(stray), exact: true }).click();
      await confirm.getByRole('button', { name: w.remove, exact: true }).click();
      await expect(strayRole).toHaveCount(0, SLOW);
      await expect(role).toHaveAttribute('data-role', 'moderator');
      await settings.context().close();

      const page = await pageAs(other, `/proposals/${proposalId}`);
      await page.getByRole('button', { name: w.cancel, exact: true }).click();
      const ask = page.getByRole('alertdialog', { name: w.cancelTitle(title), exact: true });
      await expect(ask.getByTestId('cancel-consequences')).toContainText(w.stops);
      await ask.getByLabel(w.cancelReason, { exact: true }).fill('Duplicate of another proposal');
      await ask.getByRole('button', { name: w.cancel, exact: true }).click();
      await expect(page.getByTestId('proposal-status')).toHaveAttribute('data-status', 'CANCELLED', SLOW);
      const note = page.getByTestId('cancellation');
      await expect(note).toContainText('Duplicate of another proposal', SLOW);
      await expect(note.locator(`[data-address="${other.wallet.address}"]`)).toHaveCount(1);
      await expect(page.getByTestId('cancelled-results')).toBeVisible(SLOW);
      await expect(page.getByTestId('proposal-actions')).toHaveCount(0);
      await fitsWidth(page);
      // the DAO page lists it under its own tab
      await page.goto(`${product.webUrl}/daos/${daoId}`);
      // the tabs are in the server's HTML: a click before hydration is lost, so click until it is selected
      const tab = page.getByRole('tab', { name: w.cancelledTab, exact: true });
      await expect(async () => {
        await tab.click();
        await expect(tab).toHaveAttribute('aria-selected', 'true', { timeout: 2_000 });
      }).toPass({ timeout: 60_000 });
      await expect(page.getByRole('tabpanel').getByRole('link', { name: title, exact: true })).toBeVisible(
        SLOW,
      );
      await page.context().close();
      const stored = await api.call<{ status: string }>('GET', `/proposals/${proposalId}`);
      expect(stored.status).toBe('CANCELLED');
    });

    test('edits a proposal that has not started, with the proposal form', async () => {
      const proposalId = await proposal(`Paint the crane ${lang}`, 2);
      const page = await pageAs(owner, `/proposals/${proposalId}`);
      await expect(page.getByTestId('proposal-status')).toHaveAttribute('data-status', 'PENDING', SLOW);
      await page.getByRole('link', { name: w.edit, exact: true }).click();
      await page.waitForURL(/\/edit$/);
      const title = page.getByLabel(w.title, { exact: true });
      await expect(title).toHaveValue(`Paint the crane ${lang}`, SLOW);
      await fitsWidth(page);
      await title.fill(`Paint the crane blue ${lang}`);
      await page.getByRole('button', { name: w.saveChanges, exact: true }).click();
      await page.waitForURL(new RegExp(`/proposals/${proposalId}$`), SLOW);
      await expect(page.locator('#proposal-title')).toHaveText(`Paint the crane blue ${lang}`, SLOW);
      // the proposal's own history has the edit
      const history = page.getByTestId('proposal-history');
      await history.getByText(w.changes, { exact: true }).click();
      await expect(history.locator('[data-testid="history-change"][data-field="title"]')).toContainText(
        `Paint the crane ${lang} → Paint the crane blue ${lang}`,
        SLOW,
      );
      await page.context().close();
      const stored = await api.call<{ title: string; status: string }>('GET', `/proposals/${proposalId}`);
      expect(stored).toMatchObject({ title: `Paint the crane blue ${lang}`, status: 'PENDING' });
    });

    test('the owner starts a transfer (and may withdraw it); the new owner accepts on the DAO page', async () => {
      const page = await pageAs(owner, `/daos/${daoId}/settings`);
      const transfer = page.getByRole('form', { name: w.transferForm, exact: true });
      // first to a stranger, withdrawn again
      const stranger = privateKeyToAccount(generatePrivateKey()).address;
      await transfer.getByLabel(w.newOwner, { exact: true }).fill(stranger);
      await transfer.getByRole('button', { name: w.startTransfer, exact: true }).click();
      const pending = page.getByTestId('pending-transfer-settings');
      await expect(pending.locator(`[data-address="${stranger}"]`)).toHaveCount(1, SLOW);
      await page.getByRole('button', { name: w.withdraw, exact: true }).click();
      await expect(pending).toHaveCount(0, SLOW);
      // then to the other member
      await transfer.getByLabel(w.newOwner, { exact: true }).fill(other.wallet.address);
      await transfer.getByRole('button', { name: w.startTransfer, exact: true }).click();
      await expect(pending.locator(`[data-address="${other.wallet.address}"]`)).toHaveCount(1, SLOW);
      await fitsWidth(page);
      await page.context().close();

      const theirs = await pageAs(other, `/daos/${daoId}`);
      const note = theirs.getByTestId('pending-transfer');
      await expect(note.locator(`[data-address="${other.wallet.address}"]`)).toHaveCount(1, SLOW);
      await note.getByRole('button', { name: w.accept, exact: true }).click();
      await expect(theirs.getByTestId('ownership-accepted')).toBeVisible(SLOW);
      // the new owner now governs: the settings link appears for them
      await expect(theirs.getByTestId('dao-settings-link')).toHaveText(w.settings, SLOW);
      await fitsWidth(theirs);
      await theirs.context().close();
      const dao = await api.call<{ ownerAddress: string; pendingOwner: unknown }>('GET', `/daos/${daoId}`);
      expect(dao.ownerAddress).toBe(other.wallet.address);
      expect(dao.pendingOwner).toBeNull();
      // the history names both owners as addresses (short, the whole one in data-address), not as text
      const settings = await pageAs(other, `/daos/${daoId}/settings`);
      const moved = settings.locator('[data-testid="history-change"][data-field="ownerAddress"]').first();
      await expect(moved.locator(`[data-address="${owner.wallet.address}"]`)).toHaveCount(1, SLOW);
      await expect(moved.locator(`[data-address="${other.wallet.address}"]`)).toHaveCount(1);
      await fitsWidth(settings);
      await settings.context().close();
    });

    test('searches DAOs by name (?q=), across pages', async () => {
      const tag = `kelp${lang}${Date.now().toString(36)}`;
      // one more than a page: the search keeps the pager
      for (let i = 0; i < 21; i++)
        await api.call('POST', '/daos', {
          body: {
            name: `Guild ${i}`,
            description: `a ${tag.toUpperCase()} collective`,
            ownerAddress: owner.wallet.address,
            votingRules: { threshold: 50 },
          },
          token: owner.token,
        });
      const page = await pageAs(null, '/daos');
      const search = page.getByLabel(w.search, { exact: true });
      // the box is in the server's HTML: typing before the page is hydrated would be lost, so type again
      // until the address follows (it does once hydrated and the typing pauses)
      await expect(async () => {
        await search.fill(tag);
        await page.waitForURL(new RegExp(`[?&]q=${tag}`), { timeout: 3_000 });
      }).toPass({ timeout: 60_000 });
      const cards = page.getByTestId('dao-list').locator(':scope > li');
      await expect(cards).toHaveCount(20, SLOW);
      await page.getByRole('button', { name: w.next, exact: true }).click();
      await expect(cards).toHaveCount(1, SLOW);
      expect(page.url()).toContain(`q=${tag}`);
      await fitsWidth(page);
      // opened with the search in the address, the page starts from it
      await page.goto(`${product.webUrl}/daos?q=${tag}`);
      await expect(page.getByLabel(w.search, { exact: true })).toHaveValue(tag, SLOW);
      await expect(cards).toHaveCount(20, SLOW);
      await page.context().close();
    });

    test('an admin rejects a waiting DAO with a required reason', async () => {
      const name = `Raft ${lang} ${Date.now().toString(36)}`;
      const dao = await api.call<{ daoId: string; status: string }>('POST', '/daos', {
        body: { name, ownerAddress: owner.wallet.address, votingRules: { threshold: 50 } },
        token: owner.token,
      });
      expect(dao.status).toBe('PENDING');
      const page = await pageAs(boss, '/admin/daos');
      const row = page.locator(`[data-testid="pending-dao"][data-dao-id="${dao.daoId}"]`);
      await row.getByRole('button', { name: w.reject(name), exact: true }).click();
      const ask = page.getByRole('alertdialog', { name: w.rejectTitle(name), exact: true });
      // no reason: refused in the dialog, nothing sent
      await ask.getByRole('button', { name: w.rejectConfirm, exact: true }).click();
      await expect(ask.getByRole('alert')).toContainText(w.giveReason, SLOW);
      await ask.getByLabel(w.rejectReason, { exact: true }).fill('Name taken by another club');
      await ask.getByRole('button', { name: w.rejectConfirm, exact: true }).click();
      await expect(page.getByTestId('dao-rejected')).toContainText(name, SLOW);
      await expect(row).toHaveCount(0, SLOW);
      await fitsWidth(page);
      await page.context().close();
      const stored = await api.call<{ status: string; rejectionReason: string }>('GET', `/daos/${dao.daoId}`);
      expect(stored).toMatchObject({ status: 'INACTIVE', rejectionReason: 'Name taken by another club' });
      const theirs = await pageAs(owner, `/daos/${dao.daoId}`);
      await expect(theirs.getByTestId('dao-rejection')).toContainText('Name taken by another club', SLOW);
      await theirs.context().close();
    });
  });
}
