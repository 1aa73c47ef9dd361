-- a vote counts weight = own_weight + delegated_weight (docs/governance.md, "Counting"): own_weight is computed
-- from the two, so it cannot drift; votes from before delegation get delegated_weight 0, own_weight = weight
ALTER TABLE "votes" ADD COLUMN "delegated_weight" numeric(78, 0) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "votes" ADD COLUMN "own_weight" numeric(78, 0) GENERATED ALWAYS AS (weight - delegated_weight) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "proposal_electorate_delegate_idx" ON "proposal_electorate" USING btree ("proposal_id","delegate_address") WHERE "proposal_electorate"."delegate_address" is not null;