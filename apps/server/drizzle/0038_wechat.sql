CREATE TABLE "hope_carousel" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"image" varchar(255) NOT NULL,
	"title" varchar(60),
	"position" varchar(10) DEFAULT '1' NOT NULL,
	"link_kind" varchar(10),
	"link_target" varchar(500),
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_top" integer DEFAULT 0 NOT NULL,
	"active_period" varchar(21),
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
CREATE TABLE "hope_qrcode" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"purpose" varchar(10) NOT NULL,
	"content" varchar(512) NOT NULL,
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
CREATE INDEX "hope_carousel_page_idx" ON "hope_carousel" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_carousel_title_trgm_idx" ON "hope_carousel" USING gin ("title" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_carousel_position_idx" ON "hope_carousel" USING btree ("tenant_id","position","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_carousel_link_kind_idx" ON "hope_carousel" USING btree ("tenant_id","link_kind","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_carousel_enabled_idx" ON "hope_carousel" USING btree ("tenant_id","enabled","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_qrcode_page_idx" ON "hope_qrcode" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_qrcode_purpose_idx" ON "hope_qrcode" USING btree ("tenant_id","purpose","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_qrcode_content_trgm_idx" ON "hope_qrcode" USING gin ("content" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_account_owner_key_label_idx" ON "hope_points_account" USING btree ("tenant_id","owner_key","id") WHERE is_deleted = 0;