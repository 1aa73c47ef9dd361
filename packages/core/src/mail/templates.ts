export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function verificationEmail(params: {
  appUrl: string;
  firstName: string;
  token: string;
  expiresInHours: number;
}) {
  const link = `${params.appUrl.replace(/\/$/, '')}/verify-email?token=${encodeURIComponent(params.token)}`;
  const subject = 'Verify your email for Plenum';
  const text = `Hello ${params.firstName},\n\nConfirm your email address by opening this link:\n${link}\n\nThe link expires in ${params.expiresInHours} hours. If you did not register, ignore this email.\n`;
  const html = `<p>Hello ${escapeHtml(params.firstName)},</p><p>Confirm your email address by opening this link:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>The link expires in ${params.expiresInHours} hours. If you did not register, ignore this email.</p>`;
  return { subject, text, html, link };
}

/** "1 hour", "30 minutes", "2 days": how long a mailed link works, as a person says it */
export function describeDuration(ms: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (ms >= 86_400_000 && ms % 86_400_000 === 0) return plural(ms / 86_400_000, 'day');
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return plural(ms / 3_600_000, 'hour');
  return plural(Math.max(1, Math.round(ms / 60_000)), 'minute');
}

export function passwordResetEmail(params: {
  appUrl: string;
  firstName: string;
  token: string;
  expiresInMs: number;
}) {
  const link = `${params.appUrl.replace(/\/$/, '')}/reset-password?token=${encodeURIComponent(params.token)}`;
  const expires = describeDuration(params.expiresInMs);
  const subject = 'Reset your Plenum password';
  const text = `Hello ${params.firstName},\n\nSomeone (hopefully you) asked to reset the password of your Plenum account. Choose a new password by opening this link:\n${link}\n\nThe link works once and expires in ${expires}. Resetting signs you out everywhere. If you did not ask for this, ignore this email: your password stays as it is.\n`;
  const html = `<p>Hello ${escapeHtml(params.firstName)},</p><p>Someone (hopefully you) asked to reset the password of your Plenum account. Choose a new password by opening this link:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>The link works once and expires in ${expires}. Resetting signs you out everywhere. If you did not ask for this, ignore this email: your password stays as it is.</p>`;
  return { subject, text, html, link };
}

/**
 * The notice that an account's second factor changed (docs/accounts.md, "Two-factor sign-in"): sent to
 * the account's address, so an owner who did not do it learns of it and can act.
 */
export function secondFactorEmail(params: {
  appUrl: string;
  firstName: string;
  change: 'enabled' | 'disabled' | 'recovery_codes';
}) {
  const link = `${params.appUrl.replace(/\/$/, '')}/account?tab=security`;
  const what = {
    enabled: 'Two-factor sign-in was turned on for your Plenum account. Your other sessions were signed out.',
    disabled: 'Two-factor sign-in was turned off for your Plenum account: a password alone signs in again.',
    recovery_codes: 'New recovery codes were made for your Plenum account; the old ones no longer work.',
  }[params.change];
  const subject =
    params.change === 'enabled'
      ? 'Two-factor sign-in is on'
      : params.change === 'disabled'
        ? 'Two-factor sign-in is off'
        : 'New recovery codes for your Plenum account';
  const after = `If this was not you, reset your password now and review your account's security: ${link}`;
  const text = `Hello ${params.firstName},\n\n${what}\n\n${after}\n`;
  const html = `<p>Hello ${escapeHtml(params.firstName)},</p><p>${escapeHtml(what)}</p><p>If this was not you, reset your password now and review your account's security: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`;
  return { subject, text, html };
}

/**
 * A passkey was added to or removed from the account (docs/accounts.md, "Passkeys"). `sessionsEnded`: the
 * account's other sessions were signed out (its first second factor).
 */
export function passkeyEmail(params: {
  appUrl: string;
  firstName: string;
  change: 'added' | 'removed';
  name: string;
  sessionsEnded?: boolean;
}) {
  const link = `${params.appUrl.replace(/\/$/, '')}/account?tab=security`;
  const what =
    params.change === 'added'
      ? `A passkey named “${params.name}” was added to your Plenum account: it signs in without a password.${params.sessionsEnded ? ' Your other sessions were signed out.' : ''}`
      : `The passkey named “${params.name}” was removed from your Plenum account: it no longer signs in.`;
  const subject = params.change === 'added' ? 'A passkey was added to your account' : 'A passkey was removed';
  const after = `If this was not you, reset your password now and review your account's security: ${link}`;
  const text = `Hello ${params.firstName},\n\n${what}\n\n${after}\n`;
  const html = `<p>Hello ${escapeHtml(params.firstName)},</p><p>${escapeHtml(what)}</p><p>If this was not you, reset your password now and review your account's security: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`;
  return { subject, text, html };
}

/**
 * Notices of a change to the account made by its owner or an admin (docs/accounts.md, "Account activity"):
 * sent to the account's address, so an owner who did not do it learns of it.
 */
export function accountNoticeEmail(params: {
  appUrl: string;
  firstName: string;
  notice: 'suspended' | 'reactivated' | 'password_changed' | 'password_reset';
  /** an admin's reason for a suspension, quoted as given */
  reason?: string | null | undefined;
}) {
  const security = `${params.appUrl.replace(/\/$/, '')}/account?tab=security`;
  const { subject, what, after } = {
    suspended: {
      subject: 'Your Plenum account is suspended',
      what: `An administrator suspended your Plenum account; you are signed out and cannot sign in until it is reactivated.${params.reason ? ` The reason given: ${params.reason}` : ''}`,
      after: 'If you think this is a mistake, reply to the administrators of this Plenum instance.',
    },
    reactivated: {
      subject: 'Your Plenum account is active again',
      what: 'An administrator reactivated your Plenum account: you can sign in again.',
      after: `Review your account's security: ${security}`,
    },
    password_changed: {
      subject: 'Your Plenum password was changed',
      what: 'The password of your Plenum account was changed. Your other sessions were signed out.',
      after: `If this was not you, reset your password now and review your account's security: ${security}`,
    },
    password_reset: {
      subject: 'Your Plenum password was reset',
      what: 'The password of your Plenum account was reset with a mailed link. Every session was signed out.',
      after: `If this was not you, reset your password again now and review your account's security: ${security}`,
    },
  }[params.notice];
  const text = `Hello ${params.firstName},\n\n${what}\n\n${after}\n`;
  const html = `<p>Hello ${escapeHtml(params.firstName)},</p><p>${escapeHtml(what)}</p><p>${escapeHtml(after)}</p>`;
  return { subject, text, html };
}

const linkTo = (appUrl: string, path: string, token: string) =>
  `${appUrl.replace(/\/$/, '')}/${path}?token=${encodeURIComponent(token)}`;

/** To the NEW address: its link confirms the change (docs/accounts.md, "Changing the email address"). */
export function emailChangeConfirmEmail(params: {
  appUrl: string;
  firstName: string;
  token: string;
  expiresInMs: number;
}) {
  const link = linkTo(params.appUrl, 'confirm-email', params.token);
  const expires = describeDuration(params.expiresInMs);
  const subject = 'Confirm your new email address for Plenum';
  const intro =
    'Someone (hopefully you) asked to use this address for their Plenum account. Confirm it by opening this link:';
  const after = `The link works once and expires in ${expires}. Until then the account keeps its current address. If you did not ask for this, ignore this email.`;
  const text = `Hello ${params.firstName},\n\n${intro}\n${link}\n\n${after}\n`;
  const html = `<p>Hello ${escapeHtml(params.firstName)},</p><p>${intro}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${after}</p>`;
  return { subject, text, html, link };
}

/** To the OLD address once the change is confirmed: what happened, and the link that undoes it. */
export function emailChangedEmail(params: {
  appUrl: string;
  firstName: string;
  newEmail: string;
  token: string;
  expiresInMs: number;
}) {
  const link = linkTo(params.appUrl, 'undo-email-change', params.token);
  const expires = describeDuration(params.expiresInMs);
  const subject = 'The email address of your Plenum account was changed';
  const what = `The email address of your Plenum account was changed to ${params.newEmail}. From now on you sign in with that address, and mail about the account goes there.`;
  const undo = `If this was not you, undo the change within ${expires} by opening this link:`;
  const after =
    'Undoing sets the address back to this one, signs the account out everywhere and mails you a link to choose a new password.';
  const text = `Hello ${params.firstName},\n\n${what}\n\n${undo}\n${link}\n\n${after}\n`;
  const html = `<p>Hello ${escapeHtml(params.firstName)},</p><p>${escapeHtml(what)}</p><p>${undo}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${after}</p>`;
  return { subject, text, html, link };
}
