CREATE TABLE "hope_wx_account" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(30) NOT NULL,
	"app_id" varchar(18) NOT NULL,
	"app_secret" varchar(32),
	"token" varchar(32) NOT NULL,
	"aes_key" varchar(43),
	"qr_url" varchar(255),
	"sync_state" varchar(10),
	"sync_done" integer,
	"sync_total" integer,
	"sync_next_openid" varchar(64),
	"sync_error" varchar(500),
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
CREATE TABLE "hope_wx_menu" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"account_id" bigint NOT NULL,
	"menu_json" text NOT NULL,
	"release_time" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_wx_auto_reply" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"account_id" bigint NOT NULL,
	"kind" varchar(10) DEFAULT '2' NOT NULL,
	"keywords" varchar(200),
	"match_mode" varchar(10),
	"reply_content" varchar(600) NOT NULL,
	"enabled" integer DEFAULT 1 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_wx_user" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"account_id" bigint NOT NULL,
	"openid" varchar(64) NOT NULL,
	"nickname" varchar(100),
	"remark" varchar(30),
	"subscribe" integer DEFAULT 1 NOT NULL,
	"subscribe_time" timestamp with time zone,
	"tag_ids" varchar(200),
	"unionid" varchar(64),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_wx_msg" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"account_id" bigint NOT NULL,
	"openid" varchar(64) NOT NULL,
	"direction" varchar(10) NOT NULL,
	"msg_type" varchar(32) NOT NULL,
	"event" varchar(64),
	"content" varchar(4000),
	"msg_id" varchar(64),
	"dedup_key" varchar(160),
	"msg_time" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_wx_material" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"account_id" bigint NOT NULL,
	"type" varchar(10) NOT NULL,
	"name" varchar(128),
	"media_id" varchar(128) NOT NULL,
	"url" varchar(500),
	"title" varchar(64),
	"introduction" varchar(200),
	"size" integer,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "hope_wx_account_page_idx" ON "hope_wx_account" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_wx_account_app_id_uq" ON "hope_wx_account" USING btree ("tenant_id","app_id") WHERE is_deleted = 0 and app_id is not null;--> statement-breakpoint
CREATE INDEX "hope_wx_account_name_trgm_idx" ON "hope_wx_account" USING gin ("name" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_account_name_label_idx" ON "hope_wx_account" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_menu_page_idx" ON "hope_wx_menu" USING btree ("tenant_id","release_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_menu_account_id_idx" ON "hope_wx_menu" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "hope_wx_auto_reply_page_idx" ON "hope_wx_auto_reply" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_auto_reply_account_id_idx" ON "hope_wx_auto_reply" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "hope_wx_auto_reply_kind_idx" ON "hope_wx_auto_reply" USING btree ("tenant_id","kind","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_auto_reply_keywords_trgm_idx" ON "hope_wx_auto_reply" USING gin ("keywords" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_auto_reply_match_mode_idx" ON "hope_wx_auto_reply" USING btree ("tenant_id","match_mode","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_auto_reply_enabled_idx" ON "hope_wx_auto_reply" USING btree ("tenant_id","enabled","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_user_page_idx" ON "hope_wx_user" USING btree ("tenant_id","subscribe_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_wx_user_account_id_openid_uq" ON "hope_wx_user" USING btree ("tenant_id","account_id","openid") WHERE is_deleted = 0 and account_id is not null and openid is not null;--> statement-breakpoint
CREATE INDEX "hope_wx_user_account_id_idx" ON "hope_wx_user" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "hope_wx_user_openid_idx" ON "hope_wx_user" USING btree ("tenant_id","openid","subscribe_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_user_nickname_trgm_idx" ON "hope_wx_user" USING gin ("nickname" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_user_remark_trgm_idx" ON "hope_wx_user" USING gin ("remark" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_user_subscribe_idx" ON "hope_wx_user" USING btree ("tenant_id","subscribe","subscribe_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_msg_page_idx" ON "hope_wx_msg" USING btree ("tenant_id","msg_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_wx_msg_dedup_key_uq" ON "hope_wx_msg" USING btree ("tenant_id","dedup_key") WHERE is_deleted = 0 and dedup_key is not null;--> statement-breakpoint
CREATE INDEX "hope_wx_msg_account_id_idx" ON "hope_wx_msg" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "hope_wx_msg_openid_idx" ON "hope_wx_msg" USING btree ("tenant_id","openid","msg_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_msg_direction_idx" ON "hope_wx_msg" USING btree ("tenant_id","direction","msg_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_msg_msg_type_idx" ON "hope_wx_msg" USING btree ("tenant_id","msg_type","msg_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_material_page_idx" ON "hope_wx_material" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_wx_material_account_id_media_id_uq" ON "hope_wx_material" USING btree ("tenant_id","account_id","media_id") WHERE is_deleted = 0 and account_id is not null and media_id is not null;--> statement-breakpoint
CREATE INDEX "hope_wx_material_account_id_idx" ON "hope_wx_material" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "hope_wx_material_type_idx" ON "hope_wx_material" USING btree ("tenant_id","type","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_material_name_trgm_idx" ON "hope_wx_material" USING gin ("name" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;