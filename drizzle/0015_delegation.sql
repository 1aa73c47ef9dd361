CREATE TABLE "dao_delegate_statements" (
	"dao_id" uuid NOT NULL,
	"address" text NOT NULL,
	"statement" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dao_delegate_statements_dao_id_address_pk" PRIMARY KEY("dao_id","address")
);
--> statement-breakpoint
CREATE TABLE "dao_delegation_clocks" (
	"dao_id" uuid NOT NULL,
	"delegator_address" text NOT NULL,
	"signed_timestamp" bigint NOT NULL,
	CONSTRAINT "dao_delegation_clocks_dao_id_delegator_address_pk" PRIMARY KEY("dao_id","delegator_address")
);
--> statement-breakpoint
CREATE TABLE "dao_delegations" (
	"dao_id" uuid NOT NULL,
	"delegator_address" text NOT NULL,
	"delegate_address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dao_delegations_dao_id_delegator_address_pk" PRIMARY KEY("dao_id","delegator_address")
);
--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "delegation" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "proposal_electorate" ADD COLUMN "delegate_address" text;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "delegation" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "dao_delegate_statements" ADD CONSTRAINT "dao_delegate_statements_dao_id_daos_id_fk" FOREIGN KEY ("dao_id") REFERENCES "public"."daos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dao_delegation_clocks" ADD CONSTRAINT "dao_delegation_clocks_dao_id_daos_id_fk" FOREIGN KEY ("dao_id") REFERENCES "public"."daos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dao_delegations" ADD CONSTRAINT "dao_delegations_dao_id_daos_id_fk" FOREIGN KEY ("dao_id") REFERENCES "public"."daos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dao_delegations_delegate_idx" ON "dao_delegations" USING btree ("dao_id","delegate_address");