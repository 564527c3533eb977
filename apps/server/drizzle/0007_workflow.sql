CREATE TABLE "flow_definition" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"deployment_id" bigint NOT NULL,
	"process_definition_id" varchar(128) NOT NULL,
	"process_key" varchar(64) NOT NULL,
	"name" varchar(255) NOT NULL,
	"version" integer NOT NULL,
	"category" varchar(32),
	"tenant_ids" varchar(2000) DEFAULT '' NOT NULL,
	"resource_name" varchar(255),
	"xml" text NOT NULL,
	"suspended" integer DEFAULT 0 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flow_deployment" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"name" varchar(255) NOT NULL,
	"category" varchar(32),
	"tenant_ids" varchar(2000) DEFAULT '' NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flow_history" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"process_instance_id" varchar(64) NOT NULL,
	"execution_id" varchar(128) NOT NULL,
	"activity_id" varchar(128) NOT NULL,
	"activity_name" varchar(255),
	"activity_type" varchar(64) NOT NULL,
	"assignee" bigint,
	"comment" varchar(1000),
	"start_time" timestamp with time zone DEFAULT now() NOT NULL,
	"end_time" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "flow_instance" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"process_instance_id" varchar(64) NOT NULL,
	"definition_id" bigint NOT NULL,
	"process_definition_id" varchar(128) NOT NULL,
	"process_key" varchar(64) NOT NULL,
	"process_name" varchar(255) NOT NULL,
	"category" varchar(32),
	"business_id" varchar(64),
	"start_user" bigint NOT NULL,
	"start_time" timestamp with time zone DEFAULT now() NOT NULL,
	"end_time" timestamp with time zone,
	"state" varchar(16) DEFAULT 'running' NOT NULL,
	"delete_reason" varchar(500),
	"engine_state" text,
	"variables" text,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flow_model" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"model_key" varchar(64) NOT NULL,
	"name" varchar(255) NOT NULL,
	"category" varchar(32),
	"description" varchar(1000),
	"xml" text,
	"version" integer DEFAULT 1 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flow_task" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"process_instance_id" varchar(64) NOT NULL,
	"process_definition_id" varchar(128) NOT NULL,
	"execution_id" varchar(128) NOT NULL,
	"task_definition_key" varchar(128) NOT NULL,
	"name" varchar(255) NOT NULL,
	"assignee" bigint,
	"candidate_users" varchar(2000),
	"candidate_groups" varchar(2000),
	"status" integer DEFAULT 0 NOT NULL,
	"claim_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"flag" varchar(16),
	"comment" varchar(1000),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_process_leave" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"process_definition_id" varchar(128) NOT NULL,
	"process_instance_id" varchar(64),
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone NOT NULL,
	"reason" varchar(1000) NOT NULL,
	"task_user" bigint NOT NULL,
	"apply_time" timestamp with time zone DEFAULT now() NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "flow_definition_pdid_uq" ON "flow_definition" USING btree ("process_definition_id");--> statement-breakpoint
CREATE INDEX "flow_definition_key_idx" ON "flow_definition" USING btree ("process_key");--> statement-breakpoint
CREATE INDEX "flow_history_instance_idx" ON "flow_history" USING btree ("process_instance_id","start_time");--> statement-breakpoint
CREATE UNIQUE INDEX "flow_instance_piid_uq" ON "flow_instance" USING btree ("process_instance_id");--> statement-breakpoint
CREATE INDEX "flow_instance_starter_idx" ON "flow_instance" USING btree ("tenant_id","start_user");--> statement-breakpoint
CREATE INDEX "flow_task_assignee_idx" ON "flow_task" USING btree ("tenant_id","assignee","status","create_time");--> statement-breakpoint
CREATE INDEX "flow_task_instance_idx" ON "flow_task" USING btree ("process_instance_id");