ALTER TABLE "hope_evaluation_list" ADD COLUMN "villager_id" bigint;--> statement-breakpoint
CREATE INDEX "hope_evaluation_list_villager_id_idx" ON "hope_evaluation_list" USING btree ("villager_id");