const escapeHtml = (s: string) =>
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
