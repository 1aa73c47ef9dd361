ALTER TABLE "proposal_comments" ADD COLUMN "signature" text;--> statement-breakpoint
ALTER TABLE "proposal_comments" ADD COLUMN "signed_timestamp" bigint;--> statement-breakpoint
ALTER TABLE "proposal_comments" ADD COLUMN "signed_digest" text;--> statement-breakpoint
CREATE UNIQUE INDEX "proposal_comments_signed_digest_idx" ON "proposal_comments" USING btree ("signed_digest");--> statement-breakpoint
ALTER TABLE "proposal_comments" ADD CONSTRAINT "proposal_comments_signed" CHECK (("proposal_comments"."signature" is null) = ("proposal_comments"."signed_timestamp" is null) and ("proposal_comments"."signature" is null) = ("proposal_comments"."signed_digest" is null));