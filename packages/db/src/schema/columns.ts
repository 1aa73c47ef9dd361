import { customType, timestamp } from 'drizzle-orm/pg-core';

/** Timestamps are stored with time zone and handled as Date in code (ISO-8601 `Z` in responses). */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const createdAt = () => tstz('created_at').notNull().defaultNow();
export const updatedAt = () => tstz('updated_at').notNull().defaultNow();

/**
 * Exact non-negative integers up to uint256, carried as decimal strings (JSON has no big integers).
 * numeric(78,0) holds 2^256 - 1 exactly.
 */
export const uint256 = customType<{ data: string; driverData: string }>({
  dataType: () => 'numeric(78, 0)',
  fromDriver: (v) => String(v),
  toDriver: (v) => v,
});
