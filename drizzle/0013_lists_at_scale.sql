-- the admin search's trigram indexes (docs/architecture.md, "Lists at scale"); on PGlite the server loads the extension
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "user_totals" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"live" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "proposals_dao_idx";--> statement-breakpoint
DROP INDEX "proposals_dao_status_idx";--> statement-breakpoint
DROP INDEX "votes_proposal_created_idx";--> statement-breakpoint
ALTER TABLE "daos" ADD COLUMN "member_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "users_live_created_idx" ON "users" USING btree ("created_at","id") WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "proposals_dao_idx" ON "proposals" USING btree ("dao_id","created_at","id");--> statement-breakpoint
CREATE INDEX "proposals_dao_status_idx" ON "proposals" USING btree ("dao_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "votes_proposal_created_idx" ON "votes" USING btree ("proposal_id","created_at","id");;--> statement-breakpoint
-- daos.member_count: the rows of dao_members, kept by statement triggers (a bulk insert updates each DAO once)
UPDATE "daos" SET "member_count" = (SELECT count(*) FROM "dao_members" m WHERE m."dao_id" = "daos"."id");--> statement-breakpoint
CREATE FUNCTION "dao_members_count_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "daos" d SET "member_count" = d."member_count" + n.c
  FROM (SELECT "dao_id", count(*) AS c FROM new_members GROUP BY "dao_id") n WHERE d."id" = n."dao_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dao_members_count_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "daos" d SET "member_count" = d."member_count" - n.c
  FROM (SELECT "dao_id", count(*) AS c FROM old_members GROUP BY "dao_id") n WHERE d."id" = n."dao_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "dao_members_count_added" AFTER INSERT ON "dao_members" REFERENCING NEW TABLE AS new_members
  FOR EACH STATEMENT EXECUTE FUNCTION "dao_members_count_added"();--> statement-breakpoint
CREATE TRIGGER "dao_members_count_removed" AFTER DELETE ON "dao_members" REFERENCING OLD TABLE AS old_members
  FOR EACH STATEMENT EXECUTE FUNCTION "dao_members_count_removed"();;--> statement-breakpoint
-- user_totals.live: the live accounts, kept by statement triggers on users (a login's update changes nothing)
INSERT INTO "user_totals" ("id", "live") SELECT true, count(*) FROM "users" WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE FUNCTION "users_live_added"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n integer;
BEGIN
  SELECT count(*) INTO n FROM new_users WHERE "deleted_at" IS NULL;
  IF n <> 0 THEN UPDATE "user_totals" SET "live" = "live" + n; END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "users_live_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n integer;
BEGIN
  SELECT count(*) INTO n FROM old_users WHERE "deleted_at" IS NULL;
  IF n <> 0 THEN UPDATE "user_totals" SET "live" = "live" - n; END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "users_live_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n integer;
BEGIN
  SELECT (SELECT count(*) FROM new_users WHERE "deleted_at" IS NULL)
       - (SELECT count(*) FROM old_users WHERE "deleted_at" IS NULL) INTO n;
  IF n <> 0 THEN UPDATE "user_totals" SET "live" = "live" + n; END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_live_added" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_users
  FOR EACH STATEMENT EXECUTE FUNCTION "users_live_added"();--> statement-breakpoint
CREATE TRIGGER "users_live_removed" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_users
  FOR EACH STATEMENT EXECUTE FUNCTION "users_live_removed"();--> statement-breakpoint
CREATE TRIGGER "users_live_changed" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS old_users NEW TABLE AS new_users
  FOR EACH STATEMENT EXECUTE FUNCTION "users_live_changed"();