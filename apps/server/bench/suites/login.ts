import { hashPassword, verifyPassword } from '@plenum/core';
import { startTestApp } from '../../test/support/app';
import { activeUser } from '../../test/support/factories';
import { apiClient } from '../../test/support/http';
import type { BenchContext } from '../run';

/** Login throughput must be bounded by argon2id, not by anything else: compare with raw verify speed. */
export default async function loginBench(ctx: BenchContext) {
  const hash = await hashPassword('Correct-Horse-9');
  const n = 40;
  let start = performance.now();
  for (let i = 0; i < n; i++) await verifyPassword(hash, 'Correct-Horse-9');
  const rawPerSec = n / ((performance.now() - start) / 1000);

  // 20 wrong passwords for one account would lock it after 5 (the per-account throttle): raise the
  // free failures so the timing compares the same work, the throttle's lookups included
  const t = await startTestApp({ env: { LOGIN_FAILURES_BEFORE_BACKOFF: '1000' } });
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
    console.log(`argon2id verify (baseline): ${rawPerSec.toFixed(1)}/s`);
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
