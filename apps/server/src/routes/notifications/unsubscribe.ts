import { checkUnsubscribeToken, unsubscribeByToken } from '@plenum/core';
import { discardBody } from '../../http/body';
import type { RouteContext } from '../../http/routes';

/**
 * Unsubscribing from governance mails without signing in (docs/governance.md, "Notifications"). The
 * token in the link is the credential; no cookie or session is read. A GET never changes anything (mail
 * scanners fetch links): it answers a confirmation page whose button POSTs to the same URL. The POST turns
 * `notifications.email` off, and is also the RFC 8058 one-click target of the mail's `List-Unsubscribe`
 * and `List-Unsubscribe-Post: List-Unsubscribe=One-Click` headers (mail clients POST
 * `List-Unsubscribe=One-Click` as a form). A bad, unknown or expired token is a 400 in the one error body.
 */

const tokenOf = (rc: RouteContext) => rc.query.get('token') ?? '';

/** the one form field one-click clients send is read and ignored, as is any other small body */
const BODY_LIMIT = 8 * 1024;

function page(rc: RouteContext, title: string, body: string) {
  return rc.reply
    .code(200)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Content-Type-Options', 'nosniff')
    .header(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    )
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
        `<meta name="robots" content="noindex"><title>${title}</title></head>` +
        `<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem">` +
        `<h1 style="font-size:1.4rem">${title}</h1>${body}</body></html>`,
    );
}

/** GET /notifications/unsubscribe?token=…: checks the token and asks for confirmation; changes nothing */
export async function confirmUnsubscribe(rc: RouteContext) {
  await checkUnsubscribeToken(rc.svc, { token: tokenOf(rc) });
  // an empty action posts to this same URL, token included
  return page(
    rc,
    'Stop governance emails?',
    '<p>You will no longer get emails about proposals (voting opened, reminders, outcomes) in your DAOs. ' +
      'You can turn them on again in your Plenum preferences.</p>' +
      '<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">' +
      '<button type="submit" style="font-size:1rem;padding:.5rem 1rem">Unsubscribe</button></form>',
  );
}

/** POST /notifications/unsubscribe?token=…: turns the user's email notifications off */
export async function unsubscribe(rc: RouteContext) {
  await discardBody(rc.request, BODY_LIMIT);
  const result = await unsubscribeByToken(rc.svc, { token: tokenOf(rc) });
  const accept = rc.request.headers.accept ?? '';
  if (/\btext\/html\b/i.test(accept))
    return page(
      rc,
      'Unsubscribed',
      '<p>You will no longer get governance emails. You can turn them on again in your Plenum preferences.</p>',
    );
  rc.reply.code(200).header('Cache-Control', 'no-store');
  return result;
}
