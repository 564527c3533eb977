CREATE TABLE "flow_notice" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"user_id" bigint NOT NULL,
	"process_instance_id" varchar(64) NOT NULL,
	"task_id" bigint,
	"title" varchar(255) NOT NULL,
	"title_en" varchar(255) NOT NULL,
	"read_time" timestamp with time zone,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flow_wait" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"kind" varchar(16) NOT NULL,
	"process_instance_id" varchar(64),
	"definition_id" bigint,
	"execution_id" varchar(128),
	"activity_id" varchar(128),
	"name" varchar(255),
	"child_instance_id" varchar(64),
	"due_at" timestamp with time zone,
	"repeat" integer,
	"spec" varchar(255),
	"claimed_by" varchar(64),
	"fired_at" timestamp with time zone,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "flow_notice_user_idx" ON "flow_notice" USING btree ("tenant_id","user_id","create_time");--> statement-breakpoint
CREATE INDEX "flow_wait_due_idx" ON "flow_wait" USING btree ("kind","fired_at","due_at");--> statement-breakpoint
CREATE INDEX "flow_wait_instance_idx" ON "flow_wait" USING btree ("process_instance_id");--> statement-breakpoint
CREATE INDEX "flow_wait_name_idx" ON "flow_wait" USING btree ("tenant_id","kind","name");--> statement-breakpoint
CREATE INDEX "flow_wait_child_idx" ON "flow_wait" USING btree ("child_instance_id");