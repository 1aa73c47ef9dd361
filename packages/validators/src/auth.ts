import { z } from 'zod';
import { address, isoDateTime } from './common';
import { userSchema } from './users';

export const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email('must be a valid email address'))
  .pipe(z.string().max(254));

export const loginInput = z.strictObject({
  email: z.string().trim().max(254),
  password: z.string().max(1024),
});

export const siweInput = z.strictObject({
  message: z.string().min(1).max(4096),
  signature: z.string().min(1).max(4096),
});

export const sessionOutput = z
  .object({ token: z.string(), expiresAt: isoDateTime, user: userSchema })
  .meta({ id: 'Session' });

export const nonceOutput = z.object({ nonce: z.string(), expiresAt: isoDateTime });

export const walletSchema = z
  .object({ address, isPrimary: z.boolean(), linkedAt: isoDateTime })
  .meta({ id: 'Wallet' });

export const meOutput = z.object({ user: userSchema, wallets: z.array(walletSchema) });
