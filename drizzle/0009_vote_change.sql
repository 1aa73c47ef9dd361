DROP INDEX "votes_one_per_voter";--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "allow_vote_change" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "votes" ADD COLUMN "replaced_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "votes_one_per_voter" ON "votes" USING btree ("proposal_id","voter_address") WHERE "votes"."replaced_at" is null;