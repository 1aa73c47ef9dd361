DROP INDEX "pins_user_created_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "pins_user_created_key" ON "pins" USING btree ("user_id","created_at");