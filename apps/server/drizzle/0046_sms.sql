CREATE TABLE "blade_sms" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"sms_code" varchar(32) NOT NULL,
	"category" varchar(10) NOT NULL,
	"template_id" varchar(64) NOT NULL,
	"template_content" varchar(500) NOT NULL,
	"sign_name" varchar(32) NOT NULL,
	"access_key" varchar(128) NOT NULL,
	"secret_key" varchar(128),
	"app_id" varchar(64),
	"region_id" varchar(32),
	"endpoint" varchar(255),
	"enabled" integer DEFAULT 0 NOT NULL,
	"receipt_key" varchar(43),
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
CREATE TABLE "app_sms_log" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"sms_id" bigint NOT NULL,
	"phone" varchar(20) NOT NULL,
	"state" varchar(10) NOT NULL,
	"source" varchar(10) NOT NULL,
	"content" varchar(600),
	"params" varchar(1000),
	"request_id" varchar(64),
	"message_id" varchar(96),
	"error_code" varchar(64),
	"error_message" varchar(255),
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "blade_sms_page_idx" ON "blade_sms" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "blade_sms_sms_code_uq" ON "blade_sms" USING btree ("tenant_id","sms_code") WHERE is_deleted = 0 and sms_code is not null;--> statement-breakpoint
CREATE INDEX "blade_sms_sms_code_trgm_idx" ON "blade_sms" USING gin ("sms_code" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "blade_sms_category_idx" ON "blade_sms" USING btree ("tenant_id","category","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "app_sms_log_page_idx" ON "app_sms_log" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "app_sms_log_sms_id_idx" ON "app_sms_log" USING btree ("sms_id");--> statement-breakpoint
CREATE INDEX "app_sms_log_phone_idx" ON "app_sms_log" USING btree ("tenant_id","phone","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "app_sms_log_state_idx" ON "app_sms_log" USING btree ("tenant_id","state","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "app_sms_log_source_idx" ON "app_sms_log" USING btree ("tenant_id","source","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "app_sms_log_message_id_idx" ON "app_sms_log" USING btree ("tenant_id","message_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "app_sms_log_outbox_idx" ON "app_sms_log" USING btree ("create_time") WHERE is_deleted = 0 and (state = '1' and source = '2');