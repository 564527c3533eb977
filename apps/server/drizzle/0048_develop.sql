CREATE TABLE "blade_datasource" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(64) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"host" varchar(253),
	"port" integer,
	"database_name" varchar(63),
	"username" varchar(63),
	"password" varchar(128),
	"options" varchar(255),
	"url" varchar(400),
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
CREATE TABLE "blade_model" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"datasource_id" bigint NOT NULL,
	"model_name" varchar(64) NOT NULL,
	"model_code" varchar(64) NOT NULL,
	"model_table" varchar(63) NOT NULL,
	"model_class" varchar(64) NOT NULL,
	"model_remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_model_prototype" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"model_id" bigint NOT NULL,
	"jdbc_name" varchar(63) NOT NULL,
	"jdbc_type" varchar(64) NOT NULL,
	"jdbc_comment" varchar(255),
	"property_name" varchar(64) NOT NULL,
	"property_type" varchar(32) NOT NULL,
	"is_list" integer DEFAULT 1 NOT NULL,
	"is_form" integer DEFAULT 1 NOT NULL,
	"is_row" integer DEFAULT 0 NOT NULL,
	"is_required" integer DEFAULT 0 NOT NULL,
	"component_type" varchar(10) DEFAULT 'input' NOT NULL,
	"dict_code" varchar(64),
	"is_query" integer DEFAULT 0 NOT NULL,
	"query_type" varchar(10) DEFAULT 'equal' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "blade_datasource_page_idx" ON "blade_datasource" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_datasource_name_uq" ON "blade_datasource" USING btree ("tenant_id","name") WHERE is_deleted = 0 and name is not null;--> statement-breakpoint
CREATE INDEX "blade_datasource_name_trgm_idx" ON "blade_datasource" USING gin ("name" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_datasource_kind_idx" ON "blade_datasource" USING btree ("tenant_id","kind","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_datasource_name_label_idx" ON "blade_datasource" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_model_page_idx" ON "blade_model" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_model_model_code_uq" ON "blade_model" USING btree ("tenant_id","model_code") WHERE is_deleted = 0 and model_code is not null;--> statement-breakpoint
CREATE INDEX "blade_model_datasource_id_idx" ON "blade_model" USING btree ("datasource_id");--> statement-breakpoint
CREATE INDEX "blade_model_model_name_trgm_idx" ON "blade_model" USING gin ("model_name" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_model_model_code_trgm_idx" ON "blade_model" USING gin ("model_code" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_model_model_table_trgm_idx" ON "blade_model" USING gin ("model_table" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_model_model_name_label_idx" ON "blade_model" USING btree ("tenant_id","model_name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_model_prototype_page_idx" ON "blade_model_prototype" USING btree ("tenant_id","sort","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_model_prototype_model_id_jdbc_name_uq" ON "blade_model_prototype" USING btree ("tenant_id","model_id","jdbc_name") WHERE is_deleted = 0 and model_id is not null and jdbc_name is not null;--> statement-breakpoint
CREATE INDEX "blade_model_prototype_model_id_idx" ON "blade_model_prototype" USING btree ("model_id");--> statement-breakpoint
CREATE INDEX "blade_sms_sms_code_label_idx" ON "blade_sms" USING btree ("tenant_id","sms_code","id") WHERE is_deleted = 0;