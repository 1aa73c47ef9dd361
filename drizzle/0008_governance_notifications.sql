CREATE TABLE "governance_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"proposal_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "reminder_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "governance_notifications" ADD CONSTRAINT "governance_notifications_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_notifications" ADD CONSTRAINT "governance_notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "governance_notifications_once" ON "governance_notifications" USING btree ("proposal_id","user_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "governance_notifications_token_key" ON "governance_notifications" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "governance_notifications_user_idx" ON "governance_notifications" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "proposals_reminder_due_idx" ON "proposals" USING btree ("end_time") WHERE "proposals"."status" = 'ACTIVE' and "proposals"."reminder_sent_at" is null;