CREATE TABLE "hope_points_goods" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"goods_name" varchar(60) NOT NULL,
	"category" varchar(10) NOT NULL,
	"images" varchar(2000),
	"points_price" integer NOT NULL,
	"stock" integer NOT NULL,
	"per_person_limit" integer DEFAULT 0 NOT NULL,
	"on_shelf" integer DEFAULT 1 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"description" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_points_exchange" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"villager_id" bigint NOT NULL,
	"goods_id" bigint NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"points" integer,
	"exchange_status" varchar(10) DEFAULT '1' NOT NULL,
	"redeem_code" varchar(20),
	"verifier_name" varchar(30),
	"verify_time" timestamp with time zone,
	"cancel_reason" varchar(200),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_points_deed" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"villager_id" bigint NOT NULL,
	"rule_id" bigint NOT NULL,
	"deed_date" date NOT NULL,
	"description" varchar(500) NOT NULL,
	"evidence" varchar(2000) NOT NULL,
	"review_status" varchar(10) DEFAULT '1' NOT NULL,
	"credited_points" integer,
	"reviewer_name" varchar(30),
	"review_time" timestamp with time zone,
	"reject_reason" varchar(200),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_points_record" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"villager_id" bigint NOT NULL,
	"account_id" bigint,
	"points" integer NOT NULL,
	"event_type" varchar(10),
	"rule_id" bigint,
	"reason" varchar(200) NOT NULL,
	"biz_id" varchar(64),
	"balance_after" integer,
	"record_date" date,
	"remaining" integer,
	"expires_on" date,
	"operator_name" varchar(30),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_points_account" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"owner_key" varchar(40),
	"account_kind" varchar(10),
	"villager_id" bigint,
	"household_no" varchar(30),
	"village_group" varchar(10),
	"balance" integer DEFAULT 0 NOT NULL,
	"earned" integer DEFAULT 0 NOT NULL,
	"spent" integer DEFAULT 0 NOT NULL,
	"expired" integer DEFAULT 0 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_points_rule" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"rule_name" varchar(60) NOT NULL,
	"event_type" varchar(10) NOT NULL,
	"points" integer NOT NULL,
	"daily_cap" integer DEFAULT 0 NOT NULL,
	"monthly_cap" integer DEFAULT 0 NOT NULL,
	"need_review" integer DEFAULT 1 NOT NULL,
	"enabled" integer DEFAULT 1 NOT NULL,
	"effective" varchar(21),
	"description" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "hope_points_goods_page_idx" ON "hope_points_goods" USING btree ("tenant_id","sort","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_goods_goods_name_trgm_idx" ON "hope_points_goods" USING gin ("goods_name" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_goods_category_idx" ON "hope_points_goods" USING btree ("tenant_id","category","sort","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_goods_on_shelf_idx" ON "hope_points_goods" USING btree ("tenant_id","on_shelf","sort","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_goods_goods_name_label_idx" ON "hope_points_goods" USING btree ("tenant_id","goods_name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_exchange_page_idx" ON "hope_points_exchange" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_points_exchange_redeem_code_uq" ON "hope_points_exchange" USING btree ("tenant_id","redeem_code") WHERE is_deleted = 0 and redeem_code is not null;--> statement-breakpoint
CREATE INDEX "hope_points_exchange_villager_id_idx" ON "hope_points_exchange" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_points_exchange_goods_id_idx" ON "hope_points_exchange" USING btree ("goods_id");--> statement-breakpoint
CREATE INDEX "hope_points_exchange_exchange_status_idx" ON "hope_points_exchange" USING btree ("tenant_id","exchange_status","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_deed_page_idx" ON "hope_points_deed" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_deed_villager_id_idx" ON "hope_points_deed" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_points_deed_rule_id_idx" ON "hope_points_deed" USING btree ("rule_id");--> statement-breakpoint
CREATE INDEX "hope_points_deed_review_status_idx" ON "hope_points_deed" USING btree ("tenant_id","review_status","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_record_page_idx" ON "hope_points_record" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_points_record_event_type_biz_id_uq" ON "hope_points_record" USING btree ("tenant_id","event_type","biz_id") WHERE is_deleted = 0 and event_type is not null and biz_id is not null;--> statement-breakpoint
CREATE INDEX "hope_points_record_villager_id_idx" ON "hope_points_record" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_points_record_account_id_idx" ON "hope_points_record" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "hope_points_record_event_type_idx" ON "hope_points_record" USING btree ("tenant_id","event_type","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_record_rule_id_idx" ON "hope_points_record" USING btree ("rule_id");--> statement-breakpoint
CREATE INDEX "hope_points_record_reason_trgm_idx" ON "hope_points_record" USING gin ("reason" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_account_page_idx" ON "hope_points_account" USING btree ("tenant_id","balance" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_points_account_owner_key_uq" ON "hope_points_account" USING btree ("tenant_id","owner_key") WHERE is_deleted = 0 and owner_key is not null;--> statement-breakpoint
CREATE INDEX "hope_points_account_account_kind_idx" ON "hope_points_account" USING btree ("tenant_id","account_kind","balance" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_account_villager_id_idx" ON "hope_points_account" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_points_account_household_no_trgm_idx" ON "hope_points_account" USING gin ("household_no" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_account_village_group_idx" ON "hope_points_account" USING btree ("tenant_id","village_group","balance" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_rule_page_idx" ON "hope_points_rule" USING btree ("tenant_id","event_type","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_rule_rule_name_trgm_idx" ON "hope_points_rule" USING gin ("rule_name" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_rule_enabled_idx" ON "hope_points_rule" USING btree ("tenant_id","enabled","event_type","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_points_rule_rule_name_label_idx" ON "hope_points_rule" USING btree ("tenant_id","rule_name","id") WHERE is_deleted = 0;