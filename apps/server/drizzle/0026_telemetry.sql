CREATE TABLE "hope_device" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(40) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"serial" varchar(40) NOT NULL,
	"plot_id" bigint,
	"location" varchar(40),
	"report_interval" integer DEFAULT 300 NOT NULL,
	"thresholds" text,
	"responsible_id" bigint,
	"secret" varchar(64),
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
CREATE TABLE "hope_device_alarm" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"device_id" bigint NOT NULL,
	"kind" varchar(10) NOT NULL,
	"metric" varchar(40),
	"value" numeric(14, 2),
	"threshold" numeric(14, 2),
	"state" varchar(10) NOT NULL,
	"raised_at" timestamp with time zone NOT NULL,
	"recovered_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" varchar(40),
	"closed_at" timestamp with time zone,
	"closed_by" varchar(40),
	"note" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_pest_photo" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"device_id" bigint NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"photo" varchar(255) NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telemetry_rollup" (
	"device_id" bigint NOT NULL,
	"metric" smallint NOT NULL,
	"grain" smallint NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"n" integer NOT NULL,
	"total" double precision NOT NULL,
	"low" double precision NOT NULL,
	"high" double precision NOT NULL,
	"last" double precision NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "telemetry_rollup_device_id_metric_grain_bucket_pk" PRIMARY KEY("device_id","metric","grain","bucket")
);
--> statement-breakpoint
CREATE TABLE "telemetry_state" (
	"device_id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"last_values" jsonb NOT NULL,
	"offline" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "hope_device_page_idx" ON "hope_device" USING btree ("tenant_id","serial","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_device_serial_uq" ON "hope_device" USING btree ("tenant_id","serial") WHERE is_deleted = 0 and serial is not null;--> statement-breakpoint
CREATE INDEX "hope_device_name_trgm_idx" ON "hope_device" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_device_kind_idx" ON "hope_device" USING btree ("tenant_id","kind","serial","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_device_serial_trgm_idx" ON "hope_device" USING gin ("serial" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_device_plot_id_idx" ON "hope_device" USING btree ("plot_id");--> statement-breakpoint
CREATE INDEX "hope_device_responsible_id_idx" ON "hope_device" USING btree ("responsible_id");--> statement-breakpoint
CREATE INDEX "hope_device_name_label_idx" ON "hope_device" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_device_alarm_page_idx" ON "hope_device_alarm" USING btree ("tenant_id","raised_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_device_alarm_device_id_idx" ON "hope_device_alarm" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "hope_device_alarm_kind_idx" ON "hope_device_alarm" USING btree ("tenant_id","kind","raised_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_device_alarm_state_idx" ON "hope_device_alarm" USING btree ("tenant_id","state","raised_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_pest_photo_page_idx" ON "hope_pest_photo" USING btree ("tenant_id","taken_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_pest_photo_device_id_idx" ON "hope_pest_photo" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "telemetry_state_silent_idx" ON "telemetry_state" USING btree ("offline","last_at");--> statement-breakpoint
-- Readings: append-only, partitioned by month (written by hand: drizzle cannot declare a partitioned table).
-- The server adds each month's partition before it writes into it (modules/telemetry/partitions.ts).
-- Column order packs the row: 8-byte values first, the 2-byte metric last.
CREATE TABLE "telemetry_reading" (
	"device_id" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"value" double precision NOT NULL,
	"metric" smallint NOT NULL
) PARTITION BY RANGE ("at");
--> statement-breakpoint
CREATE INDEX "telemetry_reading_device_idx" ON "telemetry_reading" USING btree ("device_id","metric","at");
