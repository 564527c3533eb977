CREATE TABLE "hope_camera" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(60) NOT NULL,
	"device_id" varchar(20) NOT NULL,
	"place" varchar(100),
	"location" varchar(40),
	"stream_url" varchar(500) NOT NULL,
	"stream_kind" varchar(10) NOT NULL,
	"codec" varchar(10) NOT NULL,
	"online" integer DEFAULT 1 NOT NULL,
	"principal_id" bigint,
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
CREATE TABLE "hope_camera_watch_log" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"camera_id" bigint NOT NULL,
	"user_name" varchar(40) NOT NULL,
	"watched_at" timestamp with time zone NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_security_incident" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"place" varchar(100) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"description" varchar(2000) NOT NULL,
	"handler_id" bigint,
	"state" varchar(10) DEFAULT '1' NOT NULL,
	"camera_id" bigint,
	"result" varchar(1000),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_security_overview" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"title" varchar(60) NOT NULL,
	"period" varchar(21) NOT NULL,
	"incidents" integer,
	"closed_incidents" integer,
	"summary" varchar(2000),
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
CREATE TABLE "hope_security_principal" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(20) NOT NULL,
	"grid_name" varchar(60) NOT NULL,
	"phone" varchar(20) NOT NULL,
	"duty" varchar(40),
	"villager_id" bigint,
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
CREATE INDEX "hope_camera_page_idx" ON "hope_camera" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_camera_device_id_uq" ON "hope_camera" USING btree ("tenant_id","device_id") WHERE is_deleted = 0 and device_id is not null;--> statement-breakpoint
CREATE INDEX "hope_camera_name_trgm_idx" ON "hope_camera" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_camera_place_trgm_idx" ON "hope_camera" USING gin ("place" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_camera_stream_kind_idx" ON "hope_camera" USING btree ("tenant_id","stream_kind","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_camera_online_idx" ON "hope_camera" USING btree ("tenant_id","online","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_camera_principal_id_idx" ON "hope_camera" USING btree ("principal_id");--> statement-breakpoint
CREATE INDEX "hope_camera_name_label_idx" ON "hope_camera" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_camera_watch_log_page_idx" ON "hope_camera_watch_log" USING btree ("tenant_id","watched_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_camera_watch_log_camera_id_idx" ON "hope_camera_watch_log" USING btree ("camera_id");--> statement-breakpoint
CREATE INDEX "hope_camera_watch_log_user_name_trgm_idx" ON "hope_camera_watch_log" USING gin ("user_name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_security_incident_page_idx" ON "hope_security_incident" USING btree ("tenant_id","occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_security_incident_place_trgm_idx" ON "hope_security_incident" USING gin ("place" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_security_incident_kind_idx" ON "hope_security_incident" USING btree ("tenant_id","kind","occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_security_incident_handler_id_idx" ON "hope_security_incident" USING btree ("handler_id");--> statement-breakpoint
CREATE INDEX "hope_security_incident_state_idx" ON "hope_security_incident" USING btree ("tenant_id","state","occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_security_incident_camera_id_idx" ON "hope_security_incident" USING btree ("camera_id");--> statement-breakpoint
CREATE INDEX "hope_security_overview_page_idx" ON "hope_security_overview" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_security_overview_title_trgm_idx" ON "hope_security_overview" USING gin ("title" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_security_principal_page_idx" ON "hope_security_principal" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_security_principal_name_trgm_idx" ON "hope_security_principal" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_security_principal_grid_name_trgm_idx" ON "hope_security_principal" USING gin ("grid_name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_security_principal_villager_id_idx" ON "hope_security_principal" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_security_principal_name_label_idx" ON "hope_security_principal" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;