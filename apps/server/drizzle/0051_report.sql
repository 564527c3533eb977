-- the family's report files before this migration had no design: an empty one (the report then asks for its columns)
UPDATE "blade_report_file" SET "content" = '{"columns":[]}' WHERE "content" IS NULL;--> statement-breakpoint
ALTER TABLE "blade_report_file" ALTER COLUMN "content" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_report_file" ADD COLUMN "tenant_id" varchar(12) DEFAULT '000000' NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_report_file" ADD COLUMN "resource_key" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_report_file" ALTER COLUMN "resource_key" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "blade_report_file" ADD COLUMN "rows_per_page" integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_report_file" ADD COLUMN "orientation" varchar(10) DEFAULT 'portrait' NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_report_file" ADD COLUMN "chart_type" varchar(10) DEFAULT 'none' NOT NULL;--> statement-breakpoint
CREATE INDEX "blade_report_file_page_idx" ON "blade_report_file" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_report_file_name_uq" ON "blade_report_file" USING btree ("tenant_id","name") WHERE is_deleted = 0 and name is not null;--> statement-breakpoint
CREATE INDEX "blade_report_file_name_trgm_idx" ON "blade_report_file" USING gin ("name" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_report_file_resource_key_idx" ON "blade_report_file" USING btree ("tenant_id","resource_key","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;