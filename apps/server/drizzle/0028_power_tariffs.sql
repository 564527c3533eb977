CREATE TABLE "hope_power_tariff" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"station_id" bigint NOT NULL,
	"effective_from" date NOT NULL,
	"tariff" varchar(7) NOT NULL,
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
CREATE INDEX "hope_power_tariff_page_idx" ON "hope_power_tariff" USING btree ("tenant_id","effective_from" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_power_tariff_station_id_idx" ON "hope_power_tariff" USING btree ("station_id");