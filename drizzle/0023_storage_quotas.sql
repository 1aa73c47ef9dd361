CREATE TABLE "storage_quotas" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"limit_bytes" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "storage_quotas_limit_nonnegative" CHECK ("storage_quotas"."limit_bytes" >= 0)
);
--> statement-breakpoint
CREATE TABLE "storage_reservations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"bytes" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "stored_bytes" bigint;--> statement-breakpoint
ALTER TABLE "storage_quotas" ADD CONSTRAINT "storage_quotas_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_reservations" ADD CONSTRAINT "storage_reservations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "storage_reservations_user_idx" ON "storage_reservations" USING btree ("user_id","expires_at");--> statement-breakpoint
CREATE INDEX "pins_user_status_idx" ON "pins" USING btree ("user_id","status");--> statement-breakpoint
-- pins recorded before quotas: an upload counts its size (a pin by CID made before has none and counts 0)
UPDATE "pins" SET "stored_bytes" = "size" WHERE "status" = 'pinned' AND "size" IS NOT NULL;
