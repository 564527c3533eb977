CREATE TABLE "hope_cooperation" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(100) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"credit_code" varchar(18) NOT NULL,
	"legal_person" varchar(20) NOT NULL,
	"phone" varchar(20),
	"member_ids" text,
	"address" varchar(200),
	"established_date" date,
	"certifications" varchar(255),
	"certified_year" integer,
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
CREATE TABLE "hope_industry" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(60) NOT NULL,
	"category" varchar(10) NOT NULL,
	"scale" numeric(14, 2),
	"scale_unit" varchar(10),
	"cooperation_id" bigint,
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
CREATE TABLE "hope_industry_breeding" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"species" varchar(10) NOT NULL,
	"stock" integer NOT NULL,
	"unit" varchar(10) NOT NULL,
	"farm_id" bigint NOT NULL,
	"record_date" date NOT NULL,
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
CREATE TABLE "hope_industry_output_value" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"industry_id" bigint NOT NULL,
	"year" integer NOT NULL,
	"value" numeric(14, 2) NOT NULL,
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
CREATE TABLE "hope_plan" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(60) NOT NULL,
	"plot_id" bigint NOT NULL,
	"year" integer NOT NULL,
	"season" varchar(10) NOT NULL,
	"crop" varchar(10) NOT NULL,
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
CREATE TABLE "hope_plan_detail" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"plan_id" bigint NOT NULL,
	"operation" varchar(10) NOT NULL,
	"content" varchar(100),
	"planned_date" date NOT NULL,
	"done_date" date,
	"record_id" bigint,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_plant_record" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"plot_id" bigint NOT NULL,
	"operation" varchar(10) NOT NULL,
	"work_date" date NOT NULL,
	"operator_id" bigint NOT NULL,
	"inputs" varchar(500),
	"photos" varchar(2000),
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
CREATE TABLE "hope_plot" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(60) NOT NULL,
	"polygon" text NOT NULL,
	"area" numeric(14, 2),
	"crop" varchar(10),
	"soil_type" varchar(10),
	"owner_kind" varchar(10) NOT NULL,
	"owner_villager_id" bigint,
	"cooperation_id" bigint,
	"delete_remark" varchar(200),
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
CREATE TABLE "hope_seedling" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"variety" varchar(60) NOT NULL,
	"supplier" varchar(100),
	"lot_no" varchar(40),
	"quantity_in" integer NOT NULL,
	"quantity_left" integer NOT NULL,
	"unit" varchar(10) NOT NULL,
	"received_date" date NOT NULL,
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
CREATE INDEX "hope_cooperation_page_idx" ON "hope_cooperation" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_cooperation_credit_code_uq" ON "hope_cooperation" USING btree ("tenant_id","credit_code") WHERE is_deleted = 0 and credit_code is not null;--> statement-breakpoint
CREATE INDEX "hope_cooperation_name_trgm_idx" ON "hope_cooperation" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_cooperation_kind_idx" ON "hope_cooperation" USING btree ("tenant_id","kind","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_cooperation_name_label_idx" ON "hope_cooperation" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_industry_page_idx" ON "hope_industry" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_industry_name_trgm_idx" ON "hope_industry" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_industry_category_idx" ON "hope_industry" USING btree ("tenant_id","category","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_industry_cooperation_id_idx" ON "hope_industry" USING btree ("cooperation_id");--> statement-breakpoint
CREATE INDEX "hope_industry_name_label_idx" ON "hope_industry" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_industry_breeding_page_idx" ON "hope_industry_breeding" USING btree ("tenant_id","record_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_industry_breeding_species_idx" ON "hope_industry_breeding" USING btree ("tenant_id","species","record_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_industry_breeding_farm_id_idx" ON "hope_industry_breeding" USING btree ("farm_id");--> statement-breakpoint
CREATE INDEX "hope_industry_output_value_page_idx" ON "hope_industry_output_value" USING btree ("tenant_id","year" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_industry_output_value_industry_id_idx" ON "hope_industry_output_value" USING btree ("industry_id");--> statement-breakpoint
CREATE INDEX "hope_plan_page_idx" ON "hope_plan" USING btree ("tenant_id","year" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plan_name_trgm_idx" ON "hope_plan" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plan_plot_id_idx" ON "hope_plan" USING btree ("plot_id");--> statement-breakpoint
CREATE INDEX "hope_plan_season_idx" ON "hope_plan" USING btree ("tenant_id","season","year" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plan_crop_idx" ON "hope_plan" USING btree ("tenant_id","crop","year" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plan_name_label_idx" ON "hope_plan" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plan_detail_page_idx" ON "hope_plan_detail" USING btree ("tenant_id","planned_date","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plan_detail_plan_id_idx" ON "hope_plan_detail" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "hope_plan_detail_operation_idx" ON "hope_plan_detail" USING btree ("tenant_id","operation","planned_date","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plan_detail_record_id_idx" ON "hope_plan_detail" USING btree ("record_id");--> statement-breakpoint
CREATE INDEX "hope_plan_detail_planned_date_label_idx" ON "hope_plan_detail" USING btree ("tenant_id","planned_date","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plant_record_page_idx" ON "hope_plant_record" USING btree ("tenant_id","work_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plant_record_plot_id_idx" ON "hope_plant_record" USING btree ("plot_id");--> statement-breakpoint
CREATE INDEX "hope_plant_record_operation_idx" ON "hope_plant_record" USING btree ("tenant_id","operation","work_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plant_record_operator_id_idx" ON "hope_plant_record" USING btree ("operator_id");--> statement-breakpoint
CREATE INDEX "hope_plant_record_work_date_label_idx" ON "hope_plant_record" USING btree ("tenant_id","work_date","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plot_page_idx" ON "hope_plot" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_plot_name_uq" ON "hope_plot" USING btree ("tenant_id","name") WHERE is_deleted = 0 and name is not null;--> statement-breakpoint
CREATE INDEX "hope_plot_name_trgm_idx" ON "hope_plot" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plot_crop_idx" ON "hope_plot" USING btree ("tenant_id","crop","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plot_soil_type_idx" ON "hope_plot" USING btree ("tenant_id","soil_type","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plot_owner_kind_idx" ON "hope_plot" USING btree ("tenant_id","owner_kind","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_plot_owner_villager_id_idx" ON "hope_plot" USING btree ("owner_villager_id");--> statement-breakpoint
CREATE INDEX "hope_plot_cooperation_id_idx" ON "hope_plot" USING btree ("cooperation_id");--> statement-breakpoint
CREATE INDEX "hope_plot_name_label_idx" ON "hope_plot" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_seedling_page_idx" ON "hope_seedling" USING btree ("tenant_id","received_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_seedling_variety_trgm_idx" ON "hope_seedling" USING gin ("variety" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_seedling_supplier_trgm_idx" ON "hope_seedling" USING gin ("supplier" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_seedling_lot_no_idx" ON "hope_seedling" USING btree ("tenant_id","lot_no","received_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;