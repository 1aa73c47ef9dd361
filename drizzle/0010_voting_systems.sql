ALTER TABLE "proposals" ADD COLUMN "voting_system" text DEFAULT 'single-choice' NOT NULL;--> statement-breakpoint
ALTER TABLE "votes" ADD COLUMN "ballot" jsonb;