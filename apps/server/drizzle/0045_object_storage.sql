CREATE TABLE "blade_oss" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"oss_code" varchar(32) NOT NULL,
	"category" varchar(10) NOT NULL,
	"endpoint" varchar(255),
	"transform_endpoint" varchar(255),
	"bucket_name" varchar(63),
	"region" varchar(32),
	"path_style" integer DEFAULT 1 NOT NULL,
	"is_public" integer DEFAULT 0 NOT NULL,
	"access_key" varchar(128),
	"secret_key" varchar(128),
	"sign_expiry" integer DEFAULT 600 NOT NULL,
	"enabled" integer DEFAULT 0 NOT NULL,
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_upload" ADD COLUMN "oss_id" bigint;--> statement-breakpoint
CREATE INDEX "blade_oss_page_idx" ON "blade_oss" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_oss_oss_code_uq" ON "blade_oss" USING btree ("tenant_id","oss_code") WHERE is_deleted = 0 and oss_code is not null;--> statement-breakpoint
CREATE INDEX "blade_oss_oss_code_trgm_idx" ON "blade_oss" USING gin ("oss_code" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_oss_category_idx" ON "blade_oss" USING btree ("tenant_id","category","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "app_upload_oss_idx" ON "app_upload" USING btree ("oss_id");