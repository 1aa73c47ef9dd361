import { randomBytes } from 'node:crypto';
import { emailOutbox } from '@plenum/db';
import type { createDaoInput, createProposalInput, registerInput } from '@plenum/validators';
import { desc, eq } from 'drizzle-orm';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import type { z } from 'zod';
import type { TestApi } from './api';

/** Test data through the routers themselves, one small factory per thing. */

export const PASSWORD = 'Correct-Horse-9';

let seq = 0;
export const uniqueEmail = (prefix = 'user') =>
  `${prefix}.${++seq}.${randomBytes(3).toString('hex')}@example.org`;

export const registration = (
  overrides: Partial<z.input<typeof registerInput>> = {},
): z.input<typeof registerInput> => ({
  email: uniqueEmail(),
  password: PASSWORD,
  firstName: 'Ada',
  lastName: 'Lovelace',
  acceptedTerms: true,
  ...overrides,
});

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

/** the token of the newest verification mail to `email`, read from the outbox table */
export async function verificationToken(api: TestApi, email: string): Promise<string> {
  const mails = await api.svc.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.to, email.toLowerCase()))
    .orderBy(desc(emailOutbox.createdAt));
  const token = mails.map((m) => /verify-email\?token=([\w%-]+)/.exec(m.text)?.[1]).find(Boolean);
  if (!token) throw new Error(`no verification mail for ${email}`);
  return decodeURIComponent(token);
}

export async function login(api: TestApi, email: string, password = PASSWORD): Promise<string> {
  const answer = await (await api.caller()).auth.login({ email, password });
  if ('mfaRequired' in answer) throw new Error(`${email} has a second factor`);
  return answer.token;
}

/** registered and signed in, email not verified */
export async function pendingUser(
  api: TestApi,
  overrides: Partial<z.input<typeof registerInput>> = {},
): Promise<TestUser> {
  const user = await (await api.caller()).registration.register(registration(overrides));
  return { id: user.id, email: user.email, token: await login(api, user.email) };
}

/** registered, verified through the mailed token, signed in */
export async function activeUser(
  api: TestApi,
  overrides: Partial<z.input<typeof registerInput>> = {},
): Promise<TestUser> {
  const anonymous = await api.caller();
  const user = await anonymous.registration.register(registration(overrides));
  await anonymous.registration.verifyEmail({ token: await verificationToken(api, user.email) });
  return { id: user.id, email: user.email, token: await login(api, user.email) };
}

export const newWallet = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey());

/** an EIP-4361 message for this app with a fresh nonce from auth.nonce, signed by `wallet` */
export async function siweProof(api: TestApi, wallet: PrivateKeyAccount) {
  const { nonce } = await (await api.caller()).auth.nonce();
  const message = createSiweMessage({
    address: wallet.address,
    chainId: 1,
    domain: 'localhost:3000',
    nonce,
    uri: 'http://localhost:3000/sign-in',
    version: '1',
    issuedAt: new Date(),
  });
  return { message, signature: await wallet.signMessage({ message }) };
}

/** an active user with one wallet linked through auth.linkWallet */
export async function memberUser(api: TestApi): Promise<TestUser & { wallet: PrivateKeyAccount }> {
  const user = await activeUser(api);
  const wallet = newWallet();
  await (await api.caller(user.token)).auth.linkWallet(await siweProof(api, wallet));
  return { ...user, wallet };
}

export const daoInput = (
  ownerAddress: string,
  overrides: Partial<z.input<typeof createDaoInput>> = {},
): z.input<typeof createDaoInput> => ({
  name: `DAO ${++seq}`,
  ownerAddress,
  votingRules: { threshold: 50 },
  ...overrides,
});

export const proposalInput = (
  daoId: string,
  creatorAddress: string,
  overrides: Partial<z.input<typeof createProposalInput>> = {},
): z.input<typeof createProposalInput> => ({
  daoId,
  title: 'Fund the garden',
  creatorAddress,
  votingDurationHours: 24,
  ...overrides,
});
