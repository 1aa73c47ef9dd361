-- what a personal access token may do (docs/accounts.md, "Token scopes"): tokens made before scopes get the
-- default, read + governance + storage (no account writes)
ALTER TABLE "access_tokens" ADD COLUMN "scopes" text[] DEFAULT '{read,governance,storage}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_scopes_check" CHECK (cardinality("access_tokens"."scopes") > 0 and "access_tokens"."scopes" <@ '{read,governance,storage,account}'::text[]);