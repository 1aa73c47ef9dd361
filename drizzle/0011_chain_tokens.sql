ALTER TABLE "daos" ADD COLUMN "token_chain_id" integer;--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "token_address" text;--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "token_standard" text;--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "token_symbol" text;--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "token_decimals" integer;--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "membership" text DEFAULT 'members' NOT NULL;--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "min_weight" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "snapshot_block_number" bigint;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "snapshot_block_hash" text;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "snapshot_block_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "snapshot_error" text;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "snapshot_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "snapshot_retry_at" timestamp with time zone;