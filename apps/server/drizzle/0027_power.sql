CREATE TABLE "hope_collect_setting" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"type" varchar(10) NOT NULL,
	"version" integer NOT NULL,
	"content" text NOT NULL,
	"note" varchar(200),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_data_collector" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"serial" varchar(40) NOT NULL,
	"protocol" varchar(10) NOT NULL,
	"state" varchar(10) DEFAULT '1' NOT NULL,
	"station_id" bigint NOT NULL,
	"device_id" bigint,
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
CREATE TABLE "hope_inverter" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"serial" varchar(40) NOT NULL,
	"model" varchar(40),
	"rated_power" numeric(14, 2) NOT NULL,
	"strings" integer,
	"mppt" integer,
	"station_id" bigint NOT NULL,
	"collector_id" bigint,
	"device_id" bigint,
	"state" varchar(10) DEFAULT '1' NOT NULL,
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
CREATE TABLE "hope_new_energy_heating" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"household_id" bigint NOT NULL,
	"device_id" bigint,
	"season" varchar(9) NOT NULL,
	"area" numeric(14, 2),
	"energy" numeric(14, 2) NOT NULL,
	"days" integer,
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
CREATE TABLE "hope_new_energy_power" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(60) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"station_id" bigint,
	"village" varchar(60),
	"household_id" bigint,
	"rated_power" numeric(14, 2),
	"energy" numeric(14, 2),
	"install_date" date,
	"photos" varchar(255),
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
CREATE TABLE "hope_power_share" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"station_id" bigint NOT NULL,
	"villager_id" bigint NOT NULL,
	"share" integer NOT NULL,
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
CREATE TABLE "hope_power_station" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(60) NOT NULL,
	"capacity" numeric(14, 2) NOT NULL,
	"location" varchar(40),
	"grid_date" date,
	"owner_village" varchar(60),
	"household_id" bigint,
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
CREATE TABLE "hope_power_station_profit" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"station_id" bigint NOT NULL,
	"month" varchar(7) NOT NULL,
	"energy" numeric(14, 2),
	"tariff" varchar(7),
	"income" numeric(14, 2),
	"distribution" text,
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
CREATE TABLE "hope_power_video" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(60) NOT NULL,
	"station_id" bigint NOT NULL,
	"place" varchar(100),
	"stream_url" varchar(500) NOT NULL,
	"stream_kind" varchar(10) NOT NULL,
	"online" integer DEFAULT 1 NOT NULL,
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
CREATE INDEX "hope_collect_setting_page_idx" ON "hope_collect_setting" USING btree ("tenant_id","version" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_collect_setting_type_idx" ON "hope_collect_setting" USING btree ("tenant_id","type","version" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_data_collector_page_idx" ON "hope_data_collector" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_data_collector_serial_uq" ON "hope_data_collector" USING btree ("tenant_id","serial") WHERE is_deleted = 0 and serial is not null;--> statement-breakpoint
CREATE INDEX "hope_data_collector_serial_trgm_idx" ON "hope_data_collector" USING gin ("serial" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_data_collector_protocol_idx" ON "hope_data_collector" USING btree ("tenant_id","protocol","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_data_collector_state_idx" ON "hope_data_collector" USING btree ("tenant_id","state","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_data_collector_station_id_idx" ON "hope_data_collector" USING btree ("station_id");--> statement-breakpoint
CREATE INDEX "hope_data_collector_device_id_idx" ON "hope_data_collector" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "hope_data_collector_serial_label_idx" ON "hope_data_collector" USING btree ("tenant_id","serial","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_inverter_page_idx" ON "hope_inverter" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_inverter_serial_uq" ON "hope_inverter" USING btree ("tenant_id","serial") WHERE is_deleted = 0 and serial is not null;--> statement-breakpoint
CREATE INDEX "hope_inverter_serial_trgm_idx" ON "hope_inverter" USING gin ("serial" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_inverter_model_trgm_idx" ON "hope_inverter" USING gin ("model" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_inverter_station_id_idx" ON "hope_inverter" USING btree ("station_id");--> statement-breakpoint
CREATE INDEX "hope_inverter_collector_id_idx" ON "hope_inverter" USING btree ("collector_id");--> statement-breakpoint
CREATE INDEX "hope_inverter_device_id_idx" ON "hope_inverter" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "hope_inverter_state_idx" ON "hope_inverter" USING btree ("tenant_id","state","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_inverter_serial_label_idx" ON "hope_inverter" USING btree ("tenant_id","serial","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_new_energy_heating_page_idx" ON "hope_new_energy_heating" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_new_energy_heating_household_id_idx" ON "hope_new_energy_heating" USING btree ("household_id");--> statement-breakpoint
CREATE INDEX "hope_new_energy_heating_device_id_idx" ON "hope_new_energy_heating" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "hope_new_energy_heating_season_idx" ON "hope_new_energy_heating" USING btree ("tenant_id","season","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_new_energy_power_page_idx" ON "hope_new_energy_power" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_new_energy_power_name_trgm_idx" ON "hope_new_energy_power" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_new_energy_power_kind_idx" ON "hope_new_energy_power" USING btree ("tenant_id","kind","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_new_energy_power_station_id_idx" ON "hope_new_energy_power" USING btree ("station_id");--> statement-breakpoint
CREATE INDEX "hope_new_energy_power_village_trgm_idx" ON "hope_new_energy_power" USING gin ("village" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_new_energy_power_household_id_idx" ON "hope_new_energy_power" USING btree ("household_id");--> statement-breakpoint
CREATE INDEX "hope_new_energy_power_name_label_idx" ON "hope_new_energy_power" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_power_share_page_idx" ON "hope_power_share" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_power_share_station_id_idx" ON "hope_power_share" USING btree ("station_id");--> statement-breakpoint
CREATE INDEX "hope_power_share_villager_id_idx" ON "hope_power_share" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_power_station_page_idx" ON "hope_power_station" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_power_station_name_trgm_idx" ON "hope_power_station" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_power_station_owner_village_trgm_idx" ON "hope_power_station" USING gin ("owner_village" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_power_station_household_id_idx" ON "hope_power_station" USING btree ("household_id");--> statement-breakpoint
CREATE INDEX "hope_power_station_name_label_idx" ON "hope_power_station" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_power_station_profit_page_idx" ON "hope_power_station_profit" USING btree ("tenant_id","month" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_power_station_profit_station_id_idx" ON "hope_power_station_profit" USING btree ("station_id");--> statement-breakpoint
CREATE INDEX "hope_power_video_page_idx" ON "hope_power_video" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_power_video_name_trgm_idx" ON "hope_power_video" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_power_video_station_id_idx" ON "hope_power_video" USING btree ("station_id");--> statement-breakpoint
CREATE INDEX "hope_power_video_online_idx" ON "hope_power_video" USING btree ("tenant_id","online","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_power_video_name_label_idx" ON "hope_power_video" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;