CREATE TABLE "hope_evaluation_list" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"project_id" bigint NOT NULL,
	"subject_name" varchar(60) NOT NULL,
	"subject_type" varchar(10) NOT NULL,
	"scores" text,
	"total_score" numeric(14, 2) DEFAULT '0' NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_evaluation_project" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(60) NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"project_status" varchar(10),
	"rule_weights" text NOT NULL,
	"reopen_history" text,
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
CREATE TABLE "hope_evaluation_rule" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"category_id" bigint NOT NULL,
	"name" varchar(60) NOT NULL,
	"content" varchar(1000),
	"weight" numeric(14, 2) NOT NULL,
	"max_score" numeric(14, 2) NOT NULL,
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
CREATE TABLE "hope_evaluation_rule_category" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(40) NOT NULL,
	"parent_id" bigint,
	"sort" integer DEFAULT 0 NOT NULL,
	"remark" varchar(255),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "hope_evaluation_list_page_idx" ON "hope_evaluation_list" USING btree ("tenant_id","total_score" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_list_project_id_idx" ON "hope_evaluation_list" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "hope_evaluation_list_subject_name_trgm_idx" ON "hope_evaluation_list" USING gin ("subject_name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_list_subject_type_idx" ON "hope_evaluation_list" USING btree ("tenant_id","subject_type","total_score" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_project_page_idx" ON "hope_evaluation_project" USING btree ("tenant_id","start_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_evaluation_project_name_uq" ON "hope_evaluation_project" USING btree ("tenant_id","name") WHERE is_deleted = 0 and name is not null;--> statement-breakpoint
CREATE INDEX "hope_evaluation_project_name_trgm_idx" ON "hope_evaluation_project" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_project_project_status_idx" ON "hope_evaluation_project" USING btree ("tenant_id","project_status","start_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_project_name_label_idx" ON "hope_evaluation_project" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_rule_page_idx" ON "hope_evaluation_rule" USING btree ("tenant_id","sort","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_rule_category_id_idx" ON "hope_evaluation_rule" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "hope_evaluation_rule_name_trgm_idx" ON "hope_evaluation_rule" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_rule_name_label_idx" ON "hope_evaluation_rule" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_rule_category_page_idx" ON "hope_evaluation_rule_category" USING btree ("tenant_id","sort","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_rule_category_name_trgm_idx" ON "hope_evaluation_rule_category" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_rule_category_parent_id_idx" ON "hope_evaluation_rule_category" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "hope_evaluation_rule_category_name_label_idx" ON "hope_evaluation_rule_category" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;