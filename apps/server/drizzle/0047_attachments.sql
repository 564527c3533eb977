CREATE TABLE "blade_attach" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"original_name" varchar(255) NOT NULL,
	"path" varchar(255) NOT NULL,
	"name" varchar(64),
	"extension" varchar(8),
	"attach_size" integer,
	"sha256" varchar(64),
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
ALTER TABLE "app_upload" ADD COLUMN "sha256" varchar(64);--> statement-breakpoint
CREATE INDEX "blade_attach_page_idx" ON "blade_attach" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_attach_original_name_trgm_idx" ON "blade_attach" USING gin ("original_name" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_attach_extension_idx" ON "blade_attach" USING btree ("tenant_id","extension","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_attach_path_idx" ON "blade_attach" USING btree ("path") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "app_upload_sha256_uq" ON "app_upload" USING btree ("tenant_id","sha256") WHERE sha256 is not null;