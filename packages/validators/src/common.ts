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

export const paginationSchema = z.object({
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  totalPages: z.number().int(),
});

export const paged = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), pagination: paginationSchema });

export const messageSchema = z.object({ message: z.string() });
