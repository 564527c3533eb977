CREATE TABLE "blade_log_api" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"service_id" varchar(32),
	"server_host" varchar(255),
	"server_ip" varchar(255),
	"env" varchar(255),
	"method" varchar(10),
	"request_uri" varchar(255),
	"user_agent" varchar(1000),
	"remote_ip" varchar(255),
	"method_class" varchar(255),
	"method_name" varchar(255),
	"params" text,
	"create_by" varchar(64),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"type" varchar(2) DEFAULT '1' NOT NULL,
	"title" varchar(255),
	"time" integer,
	"status_code" integer
);
--> statement-breakpoint
CREATE TABLE "blade_log_error" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"service_id" varchar(32),
	"server_host" varchar(255),
	"server_ip" varchar(255),
	"env" varchar(255),
	"method" varchar(10),
	"request_uri" varchar(255),
	"user_agent" varchar(1000),
	"remote_ip" varchar(255),
	"method_class" varchar(255),
	"method_name" varchar(255),
	"params" text,
	"create_by" varchar(64),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"stack_trace" text,
	"exception_name" varchar(255),
	"message" text,
	"file_name" varchar(1000),
	"line_number" integer
);
--> statement-breakpoint
CREATE TABLE "blade_log_usual" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"service_id" varchar(32),
	"server_host" varchar(255),
	"server_ip" varchar(255),
	"env" varchar(255),
	"method" varchar(10),
	"request_uri" varchar(255),
	"user_agent" varchar(1000),
	"remote_ip" varchar(255),
	"method_class" varchar(255),
	"method_name" varchar(255),
	"params" text,
	"create_by" varchar(64),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"log_level" varchar(10),
	"log_id" varchar(100),
	"log_data" text
);
--> statement-breakpoint
CREATE TABLE "blade_region" (
	"code" varchar(12) PRIMARY KEY NOT NULL,
	"parent_code" varchar(12) DEFAULT '00' NOT NULL,
	"ancestors" varchar(255) DEFAULT '00' NOT NULL,
	"name" varchar(64) NOT NULL,
	"region_level" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"remark" varchar(255)
);
--> statement-breakpoint
CREATE TABLE "blade_user_oauth" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"uuid" varchar(64) NOT NULL,
	"user_id" bigint,
	"username" varchar(64),
	"nickname" varchar(64),
	"avatar" varchar(1000),
	"source" varchar(32),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blade_tenant" ADD COLUMN "datasource_id" bigint;--> statement-breakpoint
ALTER TABLE "blade_user" ADD COLUMN "user_ext" varchar(2000);--> statement-breakpoint
CREATE INDEX "blade_log_api_tenant_idx" ON "blade_log_api" USING btree ("tenant_id","create_time");--> statement-breakpoint
CREATE INDEX "blade_log_error_tenant_idx" ON "blade_log_error" USING btree ("tenant_id","create_time");--> statement-breakpoint
CREATE INDEX "blade_log_usual_tenant_idx" ON "blade_log_usual" USING btree ("tenant_id","create_time");--> statement-breakpoint
CREATE INDEX "blade_region_parent_idx" ON "blade_region" USING btree ("parent_code");