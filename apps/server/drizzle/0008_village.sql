CREATE TABLE "hope_duplex_charge" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"leader_id" bigint,
	"member_ids" text,
	"grid_name" varchar(40),
	"phone" varchar(11),
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
CREATE TABLE "hope_evaluation_task" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"title" varchar(100),
	"assignee_id" bigint,
	"period" varchar(30),
	"deadline" date,
	"progress" integer DEFAULT 0 NOT NULL,
	"task_status" varchar(10),
	"score" numeric(5, 2),
	"grade" varchar(10),
	"content" varchar(1000),
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
CREATE TABLE "hope_filing_record" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"applicant_id" bigint,
	"kind" varchar(10),
	"event_date" date,
	"place" varchar(100),
	"tables" integer,
	"guests" integer,
	"filing_status" varchar(10),
	"content" varchar(1000),
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
CREATE TABLE "hope_guarantee_group" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"group_name" varchar(40),
	"leader_id" bigint,
	"member_ids" text,
	"area" varchar(100),
	"phone" varchar(11),
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
CREATE TABLE "hope_policy_people" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"policy_name" varchar(100),
	"villager_id" bigint NOT NULL,
	"benefit" varchar(100),
	"amount" numeric(14, 2),
	"grant_date" date,
	"grant_status" varchar(10),
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
CREATE TABLE "hope_score_record" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"villager_id" bigint NOT NULL,
	"rule_id" bigint,
	"points" integer DEFAULT 0 NOT NULL,
	"record_date" date,
	"approver" varchar(20),
	"evidence" varchar(2000),
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
CREATE TABLE "hope_score_rule" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"category" varchar(10),
	"rule_name" varchar(60),
	"points" integer DEFAULT 0 NOT NULL,
	"enabled" integer DEFAULT 1 NOT NULL,
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
CREATE TABLE "hope_security_charge" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"leader_id" bigint,
	"member_ids" text,
	"area" varchar(100),
	"patrol_duty" varchar(500),
	"phone" varchar(11),
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
CREATE TABLE "hope_vehicle" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"plate_no" varchar(10),
	"vehicle_type" varchar(10),
	"owner_id" bigint,
	"brand" varchar(40),
	"color" varchar(10),
	"usage" varchar(10),
	"register_date" date,
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
CREATE TABLE "hope_village_duty" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"duty_date" date,
	"shift" varchar(10),
	"cadre_id" bigint,
	"phone" varchar(11),
	"location" varchar(60),
	"content" varchar(1000),
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
CREATE TABLE "hope_village_overview" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"item_name" varchar(30),
	"item_value" varchar(30),
	"unit" varchar(10),
	"sort" integer DEFAULT 0 NOT NULL,
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
CREATE TABLE "hope_village_review" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"subject" varchar(100),
	"review_kind" varchar(10),
	"period" varchar(30),
	"review_date" date,
	"participants" integer,
	"result" varchar(10),
	"content" varchar(1000),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_village_rule" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"title" varchar(100),
	"effective_date" date,
	"published" integer DEFAULT 1 NOT NULL,
	"content" text,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_villager" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(20) NOT NULL,
	"sex" integer,
	"ethnicity" varchar(10),
	"id_card" varchar(18),
	"phone" varchar(11),
	"birth_date" date,
	"household_no" varchar(20) NOT NULL,
	"relation" varchar(10),
	"village_group" varchar(10),
	"address" varchar(200),
	"political_status" varchar(10),
	"education" varchar(10),
	"marital_status" varchar(10),
	"labour_status" varchar(10),
	"poverty_alleviated" integer DEFAULT 0 NOT NULL,
	"low_income" integer DEFAULT 0 NOT NULL,
	"disabled" integer DEFAULT 0 NOT NULL,
	"veteran" integer DEFAULT 0 NOT NULL,
	"living_alone" integer DEFAULT 0 NOT NULL,
	"photo" varchar(500),
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
CREATE TABLE "hope_villager_income" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"villager_id" bigint NOT NULL,
	"year" integer,
	"family_size" integer,
	"wage_income" numeric(14, 2),
	"business_income" numeric(14, 2),
	"property_income" numeric(14, 2),
	"transfer_income" numeric(14, 2),
	"total_income" numeric(14, 2),
	"per_capita" numeric(14, 2),
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
CREATE TABLE "hope_villager_cadre" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"villager_id" bigint NOT NULL,
	"position" varchar(10),
	"term_start" date,
	"term_end" date,
	"in_office" integer DEFAULT 1 NOT NULL,
	"duty" varchar(100),
	"phone" varchar(11),
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
CREATE TABLE "hope_villager_grid" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"villager_id" bigint NOT NULL,
	"grid_name" varchar(40),
	"grid_role" varchar(10),
	"grid_area" varchar(100),
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
CREATE TABLE "hope_villager_org" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"villager_id" bigint NOT NULL,
	"org_kind" varchar(10),
	"org_name" varchar(60),
	"post" varchar(30),
	"join_date" date,
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
CREATE TABLE "hope_villager_party" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"villager_id" bigint NOT NULL,
	"member_type" varchar(10),
	"branch" varchar(60),
	"join_date" date,
	"party_post" varchar(30),
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
CREATE TABLE "hope_visiting_reception" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"visitor_name" varchar(20),
	"visitor_phone" varchar(11),
	"visitor_id_card" varchar(18),
	"reception_date" date,
	"matter_kind" varchar(10),
	"matter" varchar(1000),
	"handler_id" bigint,
	"result" varchar(1000),
	"result_status" varchar(10),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_visiting_record" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"visitor_id" bigint,
	"villager_id" bigint,
	"visit_date" date,
	"visit_kind" varchar(10),
	"content" varchar(1000),
	"follow_up" varchar(500),
	"follow_status" varchar(10),
	"photos" varchar(2000),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "hope_evaluation_task_page_idx" ON "hope_evaluation_task" USING btree ("tenant_id","create_time") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_filing_record_date_idx" ON "hope_filing_record" USING btree ("tenant_id","event_date") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_policy_people_page_idx" ON "hope_policy_people" USING btree ("tenant_id","create_time" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_policy_people_villager_idx" ON "hope_policy_people" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_score_record_date_idx" ON "hope_score_record" USING btree ("tenant_id","record_date") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_score_record_villager_idx" ON "hope_score_record" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_score_rule_tenant_idx" ON "hope_score_rule" USING btree ("tenant_id","sort") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_vehicle_owner_idx" ON "hope_vehicle" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "hope_village_duty_date_idx" ON "hope_village_duty" USING btree ("tenant_id","duty_date") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_page_idx" ON "hope_villager" USING btree ("tenant_id","create_time" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_villager_id_card_uq" ON "hope_villager" USING btree ("tenant_id","id_card") WHERE is_deleted = 0 and id_card is not null;--> statement-breakpoint
CREATE INDEX "hope_villager_household_idx" ON "hope_villager" USING btree ("tenant_id","household_no") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_group_idx" ON "hope_villager" USING btree ("tenant_id","village_group","create_time" DESC NULLS LAST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_name_idx" ON "hope_villager" USING btree ("tenant_id","name") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_income_year_idx" ON "hope_villager_income" USING btree ("tenant_id","year") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_income_villager_idx" ON "hope_villager_income" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_villager_cadre_page_idx" ON "hope_villager_cadre" USING btree ("tenant_id","create_time" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_cadre_villager_idx" ON "hope_villager_cadre" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_villager_grid_page_idx" ON "hope_villager_grid" USING btree ("tenant_id","create_time" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_grid_villager_idx" ON "hope_villager_grid" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_villager_org_page_idx" ON "hope_villager_org" USING btree ("tenant_id","create_time" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_org_villager_idx" ON "hope_villager_org" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_villager_party_page_idx" ON "hope_villager_party" USING btree ("tenant_id","create_time" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_party_villager_idx" ON "hope_villager_party" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_visiting_reception_date_idx" ON "hope_visiting_reception" USING btree ("tenant_id","reception_date") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_visiting_record_date_idx" ON "hope_visiting_record" USING btree ("tenant_id","visit_date") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_visiting_record_villager_idx" ON "hope_visiting_record" USING btree ("villager_id");