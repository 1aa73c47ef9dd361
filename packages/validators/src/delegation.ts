import { z } from 'zod';
import { address, isoDateTime } from './common';
import { coded } from './issue-codes';

/**
 * Delegation inside a DAO, the write side (docs/governance.md, "Delegating"): set or remove a delegator's
 * delegate, with a session or an EIP-712 signature of the delegator.
 */

const signature = z
  .string()
  .regex(/^0x[0-9a-fA-F]+$/, coded('invalid_hex', 'must be 0x-prefixed hex'))
  .max(1_000)
  .meta({
    description: "EIP-712 signature of the delegator's wallet (GET /eip712/delegation); no session needed",
  });

/** Unix seconds, signed with the change */
const timestampDescription = 'Unix seconds, as signed (only with signature)';

export const setDelegationInput = z.strictObject({
  daoId: z.uuid(),
  delegatorAddress: address,
  delegateAddress: address,
  signature: signature.optional(),
  // a JSON body: never coerced (the identity transform keeps "1" a 400, as governance.ts's `exact`)
  timestamp: z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .transform((v) => v)
    .optional()
    .meta({ description: timestampDescription }),
});
export type SetDelegationInput = z.output<typeof setDelegationInput>;

/**
 * DELETE's input is the path and the query (docs/api.md, "Transports"): a signed removal sends
 * `signature` and `timestamp` as query parameters (the query's text is coerced to the number).
 */
export const removeDelegationInput = z.strictObject({
  daoId: z.uuid(),
  /** the delegator (named `address` like the read of the same path, GET /daos/{daoId}/delegation/{address}) */
  address,
  signature: signature.optional(),
  timestamp: z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .meta({ description: timestampDescription }),
});
export type RemoveDelegationInput = z.output<typeof removeDelegationInput>;

export const delegationSchema = z
  .object({
    daoId: z.uuid(),
    delegatorAddress: z.string(),
    delegateAddress: z.string(),
    /** when this delegate was chosen (setting the same delegate again keeps it) */
    createdAt: isoDateTime,
  })
  .meta({ id: 'Delegation' });

const typedField = z.object({ name: z.string(), type: z.string() });
export const eip712DelegationSchema = z
  .object({
    domain: z.object({ name: z.string(), version: z.string() }),
    primaryType: z.literal('Delegation'),
    types: z.record(z.string(), z.array(typedField)),
  })
  .meta({ id: 'Eip712Delegation' });
