import { expect } from 'vitest';
import type { ApiClient } from './http';

/** The newest development-outbox mail to `email` linking `/reset-password`, with its link and token. */
export async function resetMailFor(api: ApiClient, email: string) {
  for (let i = 0; i < 50; i++) {
    const res = await api.get('/dev/outbox');
    const mail = (res.body.items as { to: string; subject: string; text: string }[]).find(
      (m) => m.to === email.toLowerCase() && m.text.includes('/reset-password?token='),
    );
    const link = mail && /https?:\/\/\S+\/reset-password\?token=[\w%-]+/.exec(mail.text)?.[0];
    if (mail && link) return { ...mail, link, token: new URL(link).searchParams.get('token')! };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no password reset mail for ${email}`);
}

/** how many reset mails the development outbox holds for `email` */
export async function resetMailCount(api: ApiClient, email: string): Promise<number> {
  const res = await api.get('/dev/outbox');
  expect(res.status).toBe(200);
  return (res.body.items as { to: string; text: string }[]).filter(
    (m) => m.to === email.toLowerCase() && m.text.includes('/reset-password?token='),
  ).length;
}

/** signs in with a recognisable client; returns the session token */
export async function loginAs(api: ApiClient, email: string, password: string, userAgent = 'PlenumTest/1.0') {
  const res = await api.post('/auth/login', { email, password }, { headers: { 'user-agent': userAgent } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}
