ALTER TABLE "proposals" ADD COLUMN "record_cid" text;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "record_published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "record_claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "record_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "record_error" text;--> statement-breakpoint
CREATE INDEX "proposal_electorate_record_order_idx" ON "proposal_electorate" USING btree ("proposal_id",lower("address") collate "C");--> statement-breakpoint
CREATE INDEX "proposals_record_due_idx" ON "proposals" USING btree ("record_claimed_until") WHERE "proposals"."record_published_at" is null and "proposals"."status" in ('PASSED', 'REJECTED', 'CANCELLED');