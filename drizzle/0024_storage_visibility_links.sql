CREATE TABLE "storage_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"cid" text NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "visibility" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "dao_id" uuid;--> statement-breakpoint
ALTER TABLE "storage_links" ADD CONSTRAINT "storage_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "storage_links_token_hash_key" ON "storage_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "storage_links_user_cid_idx" ON "storage_links" USING btree ("user_id","cid","created_at");--> statement-breakpoint
ALTER TABLE "pins" ADD CONSTRAINT "pins_dao_id_daos_id_fk" FOREIGN KEY ("dao_id") REFERENCES "public"."daos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pins" ADD CONSTRAINT "pins_visibility_check" CHECK ("pins"."visibility" in ('public', 'private', 'dao'));--> statement-breakpoint
ALTER TABLE "pins" ADD CONSTRAINT "pins_dao_visibility_check" CHECK ("pins"."dao_id" is null or "pins"."visibility" = 'dao');