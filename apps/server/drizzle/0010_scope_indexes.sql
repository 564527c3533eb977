DROP INDEX "hope_policy_people_page_idx";--> statement-breakpoint
DROP INDEX "hope_villager_page_idx";--> statement-breakpoint
DROP INDEX "hope_villager_cadre_page_idx";--> statement-breakpoint
DROP INDEX "hope_villager_grid_page_idx";--> statement-breakpoint
DROP INDEX "hope_villager_org_page_idx";--> statement-breakpoint
DROP INDEX "hope_villager_party_page_idx";--> statement-breakpoint
CREATE INDEX "blade_user_scope_dept_idx" ON "blade_user" USING btree ("tenant_id","create_dept","create_time" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_user_scope_user_idx" ON "blade_user" USING btree ("tenant_id","create_user","create_time" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_policy_people_page_idx" ON "hope_policy_people" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_page_idx" ON "hope_villager" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_cadre_page_idx" ON "hope_villager_cadre" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_grid_page_idx" ON "hope_villager_grid" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_org_page_idx" ON "hope_villager_org" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_party_page_idx" ON "hope_villager_party" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;