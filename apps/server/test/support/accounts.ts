import { expect } from 'vitest';
import type { ApiClient } from './http';

/** The newest development-outbox mail to `email` linking APP_URL/`page`, with its link and token. */
export async function linkMailFor(api: ApiClient, email: string, page: string) {
  const pattern = new RegExp(`https?://\\S+/${page}\\?token=[\\w%-]+`);
  for (let i = 0; i < 50; i++) {
    const res = await api.get('/dev/outbox');
    const mail = (res.body.items as { to: string; subject: string; text: string }[]).find(
      (m) => m.to === email.toLowerCase() && m.text.includes(`/${page}?token=`),
    );
    const link = mail && pattern.exec(mail.text)?.[0];
    if (mail && link) return { ...mail, link, token: new URL(link).searchParams.get('token')! };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail linking /${page} for ${email}`);
}

/** how many mails the development outbox holds for `email` linking APP_URL/`page` */
export async function linkMailCount(api: ApiClient, email: string, page: string): Promise<number> {
  const res = await api.get('/dev/outbox');
  expect(res.status).toBe(200);
  return (res.body.items as { to: string; text: string }[]).filter(
    (m) => m.to === email.toLowerCase() && m.text.includes(`/${page}?token=`),
  ).length;
}

/** The newest development-outbox mail to `email` linking `/reset-password`, with its link and token. */
export const resetMailFor = (api: ApiClient, email: string) => linkMailFor(api, email, 'reset-password');

/** how many reset mails the development outbox holds for `email` */
export const resetMailCount = (api: ApiClient, email: string) => linkMailCount(api, email, 'reset-password');

/** signs in with a recognisable client; returns the session token */
export async function loginAs(api: ApiClient, email: string, password: string, userAgent = 'PlenumTest/1.0') {
  const res = await api.post('/auth/login', { email, password }, { headers: { 'user-agent': userAgent } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}
