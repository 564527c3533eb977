CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "hope_villager_name_trgm_idx" ON "hope_villager" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;
