import { type AnyPgColumn, customType, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Column definitions the tables share, one home each. Every helper returns a fresh builder (a builder
 * belongs to one table), and each builds exactly the column the migrations already hold: changing one
 * changes every table that uses it, so `drizzle-kit generate` must still report no changes.
 */

/** Timestamps are stored with time zone and handled as Date in code (ISO-8601 `Z` in responses). */
export const tstz = <TName extends string>(name: TName) =>
  timestamp(name, { withTimezone: true, mode: 'date' });

/** `id uuid PRIMARY KEY DEFAULT gen_random_uuid()`: the surrogate key of most tables. */
export const id = () => uuid('id').primaryKey().defaultRandom();

/**
 * A required uuid pointing at its parent row, deleted with the parent (`ON DELETE CASCADE`): the
 * user of a session, the DAO of a proposal.
 */
export const parentId = <TName extends string>(name: TName, parent: () => AnyPgColumn) =>
  uuid(name).notNull().references(parent, { onDelete: 'cascade' });

/** `created_at` / `updated_at timestamptz NOT NULL DEFAULT now()`. */
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
