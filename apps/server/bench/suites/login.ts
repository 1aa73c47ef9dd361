import { hashPassword, ManualClock, verifyPassword } from '@plenum/core';
import { Secret, TOTP } from 'otpauth';
import { startTestApp } from '../../test/support/app';
import { activeUser } from '../../test/support/factories';
import { apiClient } from '../../test/support/http';
import { SoftAuthenticator } from '../../test/support/soft-authenticator';
import type { BenchContext } from '../run';

/**
 * Login throughput must be bounded by argon2id, not by anything else: compare with raw verify speed. A
 * second factor (TOTP) must add under 20 % to a sign-in's time, and a wrong code must cost no more than
 * a wrong password (docs/accounts.md, "Two-factor sign-in"). A passkey sign-in (two factors in one, no
 * password) is measured beside them, with a software authenticator (test/support/soft-authenticator.ts).
 * Time is a ManualClock moved a 30-second step before each TOTP sign-in, so every code is fresh without
 * waiting.
 */
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/**
 * the server's own time spent answering the sign-in paths with 200, from /metrics: POST /auth/login and
 * /auth/login/mfa, and POST /auth/passkeys/login/options and /auth/passkeys/login
 */
async function serverSeconds(url: string): Promise<number> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^plenum_http_request_duration_seconds_sum\{([^}]*)\} (\S+)$/.exec(line);
    if (
      m &&
      /method="POST"/.test(m[1]!) &&
      /route="\/auth\/(login(\/mfa)?|passkeys\/login(\/options)?)"/.test(m[1]!) &&
      /status="200"/.test(m[1]!)
    )
      sum += Number(m[2]);
  }
  return sum;
}

export default async function loginBench(ctx: BenchContext) {
  const hash = await hashPassword('Correct-Horse-9');
  const n = 40;
  let start = performance.now();
  for (let i = 0; i < n; i++) await verifyPassword(hash, 'Correct-Horse-9');
  const rawPerSec = n / ((performance.now() - start) / 1000);

  // 20 wrong passwords for one account would lock it after 5 (the per-account throttle): raise the
  // free failures so the timing compares the same work, the throttle's lookups included
  const clock = new ManualClock();
  const t = await startTestApp({
    clock,
    env: { LOGIN_FAILURES_BEFORE_BACKOFF: '1000', RATE_LIMIT_DISABLED: 'true', METRICS_TOKEN },
  });
  try {
    const api = apiClient(t.url);
    const user = await activeUser(api);
    start = performance.now();
    for (let i = 0; i < n; i++) {
      const res = await api.post('/auth/login', { email: user.email, password: user.password });
      if (res.status !== 200) throw new Error(`login ${res.status}`);
    }
    const loginPerSec = n / ((performance.now() - start) / 1000);
    // No enumeration by timing: a wrong password and an unknown email should cost about the same.
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const timed = async (email: string) => {
      const s = performance.now();
      const res = await api.post('/auth/login', { email, password: 'Wrong-pass-1' });
      if (res.status !== 401) throw new Error(`failed login ${res.status}`);
      return performance.now() - s;
    };
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 20; i++) {
      wrong.push(await timed(user.email));
      unknown.push(await timed(`nobody-${i}-${Date.now()}@example.org`));
    }
    // the same account shape with TOTP on: password, then the code
    const second = await activeUser(api);
    const started = await api.post('/auth/mfa/totp', undefined, { token: second.token });
    const secret = Secret.fromBase32(started.body.secret as string);
    const code = () => TOTP.generate({ secret, timestamp: clock.now().getTime() });
    const confirmed = await api.post('/auth/mfa/totp/confirm', { code: code() }, { token: second.token });
    if (confirmed.status !== 200) throw new Error(`totp confirm ${confirmed.status}`);
    // a third account, signing in with a passkey alone
    const third = await activeUser(api);
    const authenticator = new SoftAuthenticator('http://localhost:3000');
    const creation = await api.post('/auth/passkeys/register/options', {}, { token: third.token });
    const registered = await api.post(
      '/auth/passkeys/register',
      { response: authenticator.register(creation.body) },
      { token: third.token },
    );
    if (registered.status !== 201) throw new Error(`passkey register ${registered.status}`);
    const withPasskey: number[] = [];
    let serverPasskey = 0;
    const signInWithPasskey = async () => {
      const s = performance.now();
      const options = await api.post('/auth/passkeys/login/options', {});
      const done = await api.post('/auth/passkeys/login', {
        response: authenticator.authenticate(options.body),
      });
      if (done.status !== 200) throw new Error(`passkey sign-in ${done.status}`);
      withPasskey.push(performance.now() - s);
    };
    const withCode: number[] = [];
    const passwordOnly: number[] = [];
    const wrongCode: number[] = [];
    // the server's time per sign-in, from its own request histogram, in alternating blocks of 5
    let serverWithCode = 0;
    let serverPasswordOnly = 0;
    const signInWithCode = async () => {
      clock.advance(30_000);
      const s = performance.now();
      const first = await api.post('/auth/login', { email: second.email, password: second.password });
      const done = await api.post('/auth/login/mfa', { mfaToken: first.body.mfaToken, code: code() });
      if (done.status !== 200) throw new Error(`login with TOTP ${done.status}`);
      withCode.push(performance.now() - s);
    };
    const signInPasswordOnly = async () => {
      const s = performance.now();
      const plain = await api.post('/auth/login', { email: user.email, password: user.password });
      if (plain.status !== 200) throw new Error(`login ${plain.status}`);
      passwordOnly.push(performance.now() - s);
    };
    for (let block = 0; block < n / 5; block++) {
      let before = await serverSeconds(t.url);
      for (let i = 0; i < 5; i++) await signInWithCode();
      serverWithCode += (await serverSeconds(t.url)) - before;
      before = await serverSeconds(t.url);
      for (let i = 0; i < 5; i++) await signInPasswordOnly();
      serverPasswordOnly += (await serverSeconds(t.url)) - before;
      before = await serverSeconds(t.url);
      for (let i = 0; i < 5; i++) await signInWithPasskey();
      serverPasskey += (await serverSeconds(t.url)) - before;
      for (let i = 0; i < 5; i++) {
        const again = await api.post('/auth/login', { email: second.email, password: second.password });
        const s = performance.now();
        const wrong = await api.post('/auth/login/mfa', { mfaToken: again.body.mfaToken, code: '000000' });
        if (wrong.status !== 401) throw new Error(`wrong code ${wrong.status}`);
        wrongCode.push(performance.now() - s);
      }
    }
    const serverMs = {
      withCode: (serverWithCode / n) * 1000,
      passwordOnly: (serverPasswordOnly / n) * 1000,
      passkey: (serverPasskey / n) * 1000,
    };
    const baseline = { name: 'argon2id verify', value: rawPerSec };
    ctx.record({ name: 'failed login: wrong password median', value: median(wrong), unit: 'ms' });
    ctx.record({
      name: 'failed login: unknown email median',
      value: median(unknown),
      unit: 'ms',
      baseline: { name: 'wrong password median', value: median(wrong) },
      target: { op: '≈', value: 1, of: 'baseline' },
    });
    ctx.record({
      name: 'POST /auth/login sequential',
      value: loginPerSec,
      unit: '/s',
      baseline,
      target: { op: '>=', value: 0.7, of: 'baseline' },
    });
    ctx.record({
      name: 'sign-in server time, password only (mean)',
      value: serverMs.passwordOnly,
      unit: 'ms',
    });
    ctx.record({
      name: 'sign-in server time, password + TOTP (mean)',
      value: serverMs.withCode,
      unit: 'ms',
      baseline: { name: 'password only', value: serverMs.passwordOnly },
      target: { op: '<', value: 1.2, of: 'baseline' },
    });
    ctx.record({
      name: 'sign-in server time, passkey alone (mean, options + sign-in)',
      value: serverMs.passkey,
      unit: 'ms',
      baseline: { name: 'password only', value: serverMs.passwordOnly },
      target: { op: '<=', value: 1, of: 'baseline' },
    });
    ctx.record({
      name: 'sign-in at the client, password only (median)',
      value: median(passwordOnly),
      unit: 'ms',
    });
    ctx.record({
      name: 'sign-in at the client, password + TOTP (median, two requests)',
      value: median(withCode),
      unit: 'ms',
      baseline: { name: 'password only', value: median(passwordOnly) },
    });
    ctx.record({
      name: 'failed sign-in: wrong TOTP code median',
      value: median(wrongCode),
      unit: 'ms',
      baseline: { name: 'wrong password median', value: median(wrong) },
      target: { op: '<=', value: 1, of: 'baseline' },
    });
    console.log(`argon2id verify (baseline): ${rawPerSec.toFixed(1)}/s`);
    console.log(
      `sign-in server time: password ${serverMs.passwordOnly.toFixed(1)} ms, password + TOTP ${serverMs.withCode.toFixed(1)} ms  ratio ${(serverMs.withCode / serverMs.passwordOnly).toFixed(2)} (< 1.2: the second factor adds under 20 %)`,
    );
    console.log(
      `sign-in server time: passkey alone ${serverMs.passkey.toFixed(1)} ms (options + sign-in)  ratio to password ${(serverMs.passkey / serverMs.passwordOnly).toFixed(2)}; at the client (median) ${median(withPasskey).toFixed(1)} ms`,
    );
    console.log(
      `sign-in at the client (median): password ${median(passwordOnly).toFixed(1)} ms, password + TOTP ${median(withCode).toFixed(1)} ms (two requests)  ratio ${(median(withCode) / median(passwordOnly)).toFixed(2)}`,
    );
    console.log(
      `failed code median ${median(wrongCode).toFixed(1)} ms vs failed password ${median(wrong).toFixed(1)} ms  ratio ${(median(wrongCode) / median(wrong)).toFixed(2)} (≤ 1)`,
    );
    console.log(
      `failed login median: wrong password ${median(wrong).toFixed(1)} ms, unknown email ${median(unknown).toFixed(1)} ms  ratio ${(median(unknown) / median(wrong)).toFixed(2)} (≈ 1 means no timing oracle)`,
    );
    console.log(
      `POST /auth/login sequential: ${loginPerSec.toFixed(1)}/s  ratio to baseline ${(loginPerSec / rawPerSec).toFixed(2)} (≥ 0.7 means hashing dominates)`,
    );
  } finally {
    await t.close();
  }
}
