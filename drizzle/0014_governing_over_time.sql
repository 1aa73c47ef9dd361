CREATE TABLE "dao_roles" (
	"dao_id" uuid NOT NULL,
	"address" text NOT NULL,
	"role" text NOT NULL,
	"granted_by" text,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dao_roles_dao_id_address_pk" PRIMARY KEY("dao_id","address")
);
--> statement-breakpoint
CREATE TABLE "governance_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"dao_id" uuid NOT NULL,
	"proposal_id" uuid,
	"actor_address" text,
	"changes" jsonb NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "proposers" text DEFAULT 'members' NOT NULL;--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "proposal_threshold" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "max_active_proposals_per_author" integer;--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "pending_owner_address" text;--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "pending_owner_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "rejection_reason" text;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "threshold" numeric(9, 6);--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "min_voting_period" numeric(12, 6);--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "token_weighted" boolean;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "quorum" numeric(9, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "results_visibility" text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "allow_vote_change" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "token_chain_id" integer;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "token_address" text;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "token_standard" text;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "token_symbol" text;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "token_decimals" integer;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "membership" text DEFAULT 'members' NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "min_weight" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "proposers" text DEFAULT 'members' NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "proposal_threshold" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "max_active_proposals_per_author" integer;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "dao_roles" ADD CONSTRAINT "dao_roles_dao_id_daos_id_fk" FOREIGN KEY ("dao_id") REFERENCES "public"."daos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_history" ADD CONSTRAINT "governance_history_dao_id_daos_id_fk" FOREIGN KEY ("dao_id") REFERENCES "public"."daos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_history" ADD CONSTRAINT "governance_history_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "governance_history_dao_idx" ON "governance_history" USING btree ("dao_id","id") WHERE "governance_history"."proposal_id" is null;--> statement-breakpoint
CREATE INDEX "governance_history_proposal_idx" ON "governance_history" USING btree ("proposal_id","id");--> statement-breakpoint
CREATE INDEX "daos_search_trgm_idx" ON "daos" USING gin (("name" || ' ' || "description") gin_trgm_ops);
--> statement-breakpoint
-- every proposal so far was created under its DAO's rules as they stand (they could not change until now)
UPDATE "proposals" p SET "threshold" = d."threshold", "min_voting_period" = d."min_voting_period", "token_weighted" = d."token_weighted", "quorum" = d."quorum", "results_visibility" = d."results_visibility", "allow_vote_change" = d."allow_vote_change", "token_chain_id" = d."token_chain_id", "token_address" = d."token_address", "token_standard" = d."token_standard", "token_symbol" = d."token_symbol", "token_decimals" = d."token_decimals", "membership" = d."membership", "min_weight" = d."min_weight", "proposers" = d."proposers", "proposal_threshold" = d."proposal_threshold", "max_active_proposals_per_author" = d."max_active_proposals_per_author" FROM "daos" d WHERE d."id" = p."dao_id";--> statement-breakpoint
ALTER TABLE "proposals" ALTER COLUMN "threshold" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ALTER COLUMN "min_voting_period" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ALTER COLUMN "token_weighted" SET NOT NULL;
