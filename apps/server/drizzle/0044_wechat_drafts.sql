CREATE TABLE "hope_wx_draft" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"account_id" bigint NOT NULL,
	"title" varchar(64) NOT NULL,
	"article_count" integer,
	"articles" text NOT NULL,
	"media_id" varchar(128) NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_wx_free_publish" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"account_id" bigint NOT NULL,
	"title" varchar(64) NOT NULL,
	"state" varchar(10) NOT NULL,
	"url" varchar(500),
	"article_id" varchar(128),
	"publish_id" varchar(64) NOT NULL,
	"msg_data_id" varchar(32),
	"draft_id" varchar(20),
	"publish_status" integer,
	"fail_idx" varchar(64),
	"failed" varchar(500),
	"titles" text,
	"article_count" integer,
	"checked_at" timestamp with time zone,
	"publish_time" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_wx_article" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"account_id" bigint NOT NULL,
	"title" varchar(64) NOT NULL,
	"author" varchar(8),
	"digest" varchar(120),
	"content" text,
	"url" varchar(500),
	"thumb_url" varchar(500),
	"article_id" varchar(128) NOT NULL,
	"idx" integer NOT NULL,
	"msg_data_id" varchar(32),
	"publish_row_id" varchar(20),
	"comment_open" integer DEFAULT 0 NOT NULL,
	"hidden" integer DEFAULT 0 NOT NULL,
	"comment_count" integer DEFAULT 0 NOT NULL,
	"publish_time" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_wx_comment" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"account_id" bigint NOT NULL,
	"article_row_id" bigint NOT NULL,
	"user_comment_id" integer NOT NULL,
	"openid" varchar(64),
	"content" varchar(1000) NOT NULL,
	"reply_content" varchar(1000),
	"elected" integer DEFAULT 0 NOT NULL,
	"comment_time" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "hope_wx_draft_page_idx" ON "hope_wx_draft" USING btree ("tenant_id","update_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_draft_account_id_idx" ON "hope_wx_draft" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "hope_wx_draft_title_trgm_idx" ON "hope_wx_draft" USING gin ("title" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_free_publish_page_idx" ON "hope_wx_free_publish" USING btree ("tenant_id","publish_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_free_publish_account_id_idx" ON "hope_wx_free_publish" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "hope_wx_free_publish_title_trgm_idx" ON "hope_wx_free_publish" USING gin ("title" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_free_publish_state_idx" ON "hope_wx_free_publish" USING btree ("tenant_id","state","publish_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_free_publish_article_id_idx" ON "hope_wx_free_publish" USING btree ("tenant_id","article_id","publish_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_article_page_idx" ON "hope_wx_article" USING btree ("tenant_id","publish_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_article_account_id_idx" ON "hope_wx_article" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "hope_wx_article_title_trgm_idx" ON "hope_wx_article" USING gin ("title" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_article_article_id_idx" ON "hope_wx_article" USING btree ("tenant_id","article_id","publish_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_article_comment_open_idx" ON "hope_wx_article" USING btree ("tenant_id","comment_open","publish_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_article_hidden_idx" ON "hope_wx_article" USING btree ("tenant_id","hidden","publish_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_article_title_label_idx" ON "hope_wx_article" USING btree ("tenant_id","title","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_comment_page_idx" ON "hope_wx_comment" USING btree ("tenant_id","comment_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_wx_comment_article_row_id_user_comment_id_uq" ON "hope_wx_comment" USING btree ("tenant_id","article_row_id","user_comment_id") WHERE is_deleted = 0 and article_row_id is not null and user_comment_id is not null;--> statement-breakpoint
CREATE INDEX "hope_wx_comment_account_id_idx" ON "hope_wx_comment" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "hope_wx_comment_article_row_id_idx" ON "hope_wx_comment" USING btree ("article_row_id");--> statement-breakpoint
CREATE INDEX "hope_wx_comment_openid_idx" ON "hope_wx_comment" USING btree ("tenant_id","openid","comment_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_wx_comment_elected_idx" ON "hope_wx_comment" USING btree ("tenant_id","elected","comment_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;