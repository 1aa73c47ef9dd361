import { z } from 'zod';
import { coded } from './issue-codes';

export const isoDateTime = z.iso.datetime({ offset: true });
export const uuid = z.uuid();
export const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, coded('invalid_address', 'must be 0x followed by 40 hex characters'))
  .meta({
    description: 'EVM address (0x + 40 hex); returned EIP-55 checksummed',
    example: '0x52908400098527886E0F7030069857D2E4169EE7',
  });

export const pageQuery = {
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
};

/**
 * a list that also pages by cursor (docs/api.md, "Lists"): `after` is a `nextCursor` it returned; the core
 * checks that it belongs to the list (a 400 on `after` otherwise)
 */
export const afterQuery = {
  after: z.string().min(1).max(1000).optional().meta({
    description: "the previous page's pagination.nextCursor: the page starts after it (page stays 1)",
  }),
};

export const paginationSchema = z.object({
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  totalPages: z.number().int(),
});

export const paged = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), pagination: paginationSchema });

export const cursorPaginationSchema = paginationSchema.extend({
  nextCursor: z
    .string()
    .nullable()
    .meta({ description: 'pass as `after` for the next page; null on the last page' }),
});

/** a list that also pages by cursor: `pagination` carries `nextCursor` */
export const cursorPaged = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), pagination: cursorPaginationSchema });

export const messageSchema = z.object({ message: z.string() });
