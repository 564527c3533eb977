CREATE TABLE "hope_assistance_project" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(100) NOT NULL,
	"unit_id" bigint NOT NULL,
	"category" varchar(10) NOT NULL,
	"budget" numeric(14, 2) NOT NULL,
	"spend" numeric(14, 2) DEFAULT '0' NOT NULL,
	"period" varchar(21) NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"project_status" varchar(10) NOT NULL,
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
CREATE TABLE "hope_assistance_reception" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"visitor_name" varchar(20) NOT NULL,
	"visitor_unit" varchar(60),
	"phone" varchar(20),
	"visit_time" timestamp with time zone NOT NULL,
	"persons" integer DEFAULT 1 NOT NULL,
	"purpose" varchar(500) NOT NULL,
	"receiver" varchar(20),
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
CREATE TABLE "hope_assistance_system" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"title" varchar(100) NOT NULL,
	"category" varchar(10) NOT NULL,
	"documents" varchar(2000),
	"effective_date" date,
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
CREATE TABLE "hope_assistance_unit" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(60) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"leader" varchar(20),
	"contact_phone" varchar(20),
	"members" integer,
	"dispatch_period" varchar(21),
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
CREATE TABLE "hope_care_video" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"title" varchar(100) NOT NULL,
	"category" varchar(10) NOT NULL,
	"video_file" varchar(255),
	"video_url" varchar(500),
	"cover" varchar(255),
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
CREATE TABLE "hope_information" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"title" varchar(100) NOT NULL,
	"category" varchar(10) NOT NULL,
	"cover" varchar(255),
	"content" text NOT NULL,
	"publish_status" varchar(10) DEFAULT '2' NOT NULL,
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
CREATE INDEX "hope_assistance_project_page_idx" ON "hope_assistance_project" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_assistance_project_name_trgm_idx" ON "hope_assistance_project" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_assistance_project_unit_id_idx" ON "hope_assistance_project" USING btree ("unit_id");--> statement-breakpoint
CREATE INDEX "hope_assistance_project_category_idx" ON "hope_assistance_project" USING btree ("tenant_id","category","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_assistance_project_project_status_idx" ON "hope_assistance_project" USING btree ("tenant_id","project_status","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_assistance_reception_page_idx" ON "hope_assistance_reception" USING btree ("tenant_id","visit_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_assistance_reception_visitor_name_trgm_idx" ON "hope_assistance_reception" USING gin ("visitor_name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_assistance_reception_visitor_unit_trgm_idx" ON "hope_assistance_reception" USING gin ("visitor_unit" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_assistance_system_page_idx" ON "hope_assistance_system" USING btree ("tenant_id","effective_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_assistance_system_title_trgm_idx" ON "hope_assistance_system" USING gin ("title" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_assistance_system_category_idx" ON "hope_assistance_system" USING btree ("tenant_id","category","effective_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_assistance_unit_page_idx" ON "hope_assistance_unit" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_assistance_unit_name_uq" ON "hope_assistance_unit" USING btree ("tenant_id","name") WHERE is_deleted = 0 and name is not null;--> statement-breakpoint
CREATE INDEX "hope_assistance_unit_name_trgm_idx" ON "hope_assistance_unit" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_assistance_unit_kind_idx" ON "hope_assistance_unit" USING btree ("tenant_id","kind","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_assistance_unit_leader_trgm_idx" ON "hope_assistance_unit" USING gin ("leader" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_assistance_unit_name_label_idx" ON "hope_assistance_unit" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_care_video_page_idx" ON "hope_care_video" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_care_video_title_trgm_idx" ON "hope_care_video" USING gin ("title" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_care_video_category_idx" ON "hope_care_video" USING btree ("tenant_id","category","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_information_page_idx" ON "hope_information" USING btree ("tenant_id","publish_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_information_title_trgm_idx" ON "hope_information" USING gin ("title" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_information_category_idx" ON "hope_information" USING btree ("tenant_id","category","publish_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_information_publish_status_idx" ON "hope_information" USING btree ("tenant_id","publish_status","publish_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;