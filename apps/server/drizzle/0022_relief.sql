CREATE TABLE "hope_benefiting_policy" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(100) NOT NULL,
	"category" varchar(10) NOT NULL,
	"target_group" varchar(100) NOT NULL,
	"standard" varchar(200),
	"issuer" varchar(60),
	"effective_date" date,
	"content" varchar(4000),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_prevention_poverty" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"householder_id" bigint NOT NULL,
	"household_no" varchar(20) NOT NULL,
	"monitor_kind" varchar(10) NOT NULL,
	"risk_kinds" varchar(255) NOT NULL,
	"source" varchar(10) NOT NULL,
	"family_size" integer NOT NULL,
	"phone" varchar(20),
	"bank_account" varchar(30),
	"apply_date" date NOT NULL,
	"stage" varchar(10) DEFAULT '1' NOT NULL,
	"notice_start" date,
	"notice_end" date,
	"identify_date" date,
	"risk_removed_date" date,
	"risk_removed_reason" varchar(200),
	"process_instance_id" varchar(64),
	"situation" varchar(1000),
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
CREATE TABLE "hope_relief_income_line" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"year" integer NOT NULL,
	"line" numeric(14, 2) NOT NULL,
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
CREATE TABLE "hope_relief_responsible" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(20) NOT NULL,
	"unit" varchar(60) NOT NULL,
	"post" varchar(30),
	"phone" varchar(20) NOT NULL,
	"households" text,
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
CREATE TABLE "hope_resettlement_site" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(60) NOT NULL,
	"address" varchar(200) NOT NULL,
	"location" varchar(40),
	"households" integer DEFAULT 0 NOT NULL,
	"persons" integer DEFAULT 0 NOT NULL,
	"built_date" date,
	"facilities" varchar(1000),
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
CREATE TABLE "hope_supporting_measure" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"household_id" bigint NOT NULL,
	"measure_kind" varchar(10) NOT NULL,
	"name" varchar(100) NOT NULL,
	"amount" numeric(14, 2),
	"start_date" date NOT NULL,
	"end_date" date,
	"status" integer DEFAULT 1 NOT NULL,
	"responsible_id" bigint,
	"content" varchar(1000),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "hope_benefiting_policy_page_idx" ON "hope_benefiting_policy" USING btree ("tenant_id","effective_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_benefiting_policy_name_trgm_idx" ON "hope_benefiting_policy" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_benefiting_policy_category_idx" ON "hope_benefiting_policy" USING btree ("tenant_id","category","effective_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_prevention_poverty_page_idx" ON "hope_prevention_poverty" USING btree ("tenant_id","apply_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_prevention_poverty_household_no_uq" ON "hope_prevention_poverty" USING btree ("tenant_id","household_no") WHERE is_deleted = 0 and household_no is not null;--> statement-breakpoint
CREATE INDEX "hope_prevention_poverty_householder_id_idx" ON "hope_prevention_poverty" USING btree ("householder_id");--> statement-breakpoint
CREATE INDEX "hope_prevention_poverty_monitor_kind_idx" ON "hope_prevention_poverty" USING btree ("tenant_id","monitor_kind","apply_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_prevention_poverty_stage_idx" ON "hope_prevention_poverty" USING btree ("tenant_id","stage","apply_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_prevention_poverty_household_no_label_idx" ON "hope_prevention_poverty" USING btree ("tenant_id","household_no","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_relief_income_line_page_idx" ON "hope_relief_income_line" USING btree ("tenant_id","year" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_relief_income_line_year_uq" ON "hope_relief_income_line" USING btree ("tenant_id","year") WHERE is_deleted = 0 and year is not null;--> statement-breakpoint
CREATE INDEX "hope_relief_responsible_page_idx" ON "hope_relief_responsible" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_relief_responsible_name_trgm_idx" ON "hope_relief_responsible" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_relief_responsible_name_label_idx" ON "hope_relief_responsible" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_resettlement_site_page_idx" ON "hope_resettlement_site" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_resettlement_site_name_trgm_idx" ON "hope_resettlement_site" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_supporting_measure_page_idx" ON "hope_supporting_measure" USING btree ("tenant_id","start_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_supporting_measure_household_id_idx" ON "hope_supporting_measure" USING btree ("household_id");--> statement-breakpoint
CREATE INDEX "hope_supporting_measure_measure_kind_idx" ON "hope_supporting_measure" USING btree ("tenant_id","measure_kind","start_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_supporting_measure_name_trgm_idx" ON "hope_supporting_measure" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_supporting_measure_status_idx" ON "hope_supporting_measure" USING btree ("tenant_id","status","start_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_supporting_measure_responsible_id_idx" ON "hope_supporting_measure" USING btree ("responsible_id");