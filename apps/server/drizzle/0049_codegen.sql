CREATE TABLE "blade_code" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"code_name" varchar(64) NOT NULL,
	"code_name_en" varchar(64) NOT NULL,
	"service_name" varchar(64) NOT NULL,
	"route_prefix" varchar(32) NOT NULL,
	"model_id" bigint NOT NULL,
	"template_type" varchar(10) DEFAULT 'single' NOT NULL,
	"sub_model_id" bigint,
	"sub_foreign_key" varchar(64),
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
CREATE INDEX "blade_code_page_idx" ON "blade_code" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_code_code_name_uq" ON "blade_code" USING btree ("tenant_id","code_name") WHERE is_deleted = 0 and code_name is not null;--> statement-breakpoint
CREATE INDEX "blade_code_code_name_trgm_idx" ON "blade_code" USING gin ("code_name" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_code_service_name_trgm_idx" ON "blade_code" USING gin ("service_name" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_code_model_id_idx" ON "blade_code" USING btree ("model_id");--> statement-breakpoint
CREATE INDEX "blade_code_template_type_idx" ON "blade_code" USING btree ("tenant_id","template_type","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_code_sub_model_id_idx" ON "blade_code" USING btree ("sub_model_id");