CREATE TABLE "email_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"old_email" text NOT NULL,
	"new_email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"undo_token_hash" text,
	"undo_expires_at" timestamp with time zone,
	"undone_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_changes" ADD CONSTRAINT "email_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_changes_token_hash_key" ON "email_changes" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "email_changes_undo_token_hash_key" ON "email_changes" USING btree ("undo_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "email_changes_one_pending_per_user" ON "email_changes" USING btree ("user_id") WHERE "email_changes"."confirmed_at" is null;--> statement-breakpoint
CREATE INDEX "email_changes_expires_idx" ON "email_changes" USING btree ("expires_at");