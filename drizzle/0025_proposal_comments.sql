CREATE TABLE "proposal_comment_edits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"comment_id" uuid NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proposal_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"proposal_id" uuid NOT NULL,
	"dao_id" uuid NOT NULL,
	"parent_id" uuid,
	"depth" smallint DEFAULT 0 NOT NULL,
	"author_user_id" uuid,
	"author_address" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"hidden_at" timestamp with time zone,
	"hidden_reason" text,
	"hidden_by" text,
	CONSTRAINT "proposal_comments_depth" CHECK ("proposal_comments"."depth" between 0 and 2)
);
--> statement-breakpoint
ALTER TABLE "proposal_comment_edits" ADD CONSTRAINT "proposal_comment_edits_comment_id_proposal_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."proposal_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_comments" ADD CONSTRAINT "proposal_comments_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_comments" ADD CONSTRAINT "proposal_comments_parent_id_proposal_comments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."proposal_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_comments" ADD CONSTRAINT "proposal_comments_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "proposal_comment_edits_comment_idx" ON "proposal_comment_edits" USING btree ("comment_id","id");--> statement-breakpoint
CREATE INDEX "proposal_comments_thread_idx" ON "proposal_comments" USING btree ("proposal_id","parent_id","created_at");--> statement-breakpoint
CREATE INDEX "proposal_comments_author_idx" ON "proposal_comments" USING btree ("author_user_id","created_at");