CREATE TABLE "hope_tourism_preset" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"type" varchar(10) NOT NULL,
	"name" varchar(60) NOT NULL,
	"location" varchar(40) NOT NULL,
	"address" varchar(200),
	"open_hours" varchar(60),
	"price" numeric(14, 2),
	"images" varchar(2000),
	"phone" varchar(20),
	"intro" varchar(2000),
	"enabled" integer DEFAULT 1 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_tourism_route" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(60) NOT NULL,
	"points" text NOT NULL,
	"length_km" numeric(14, 2),
	"stops" text,
	"intro" varchar(2000),
	"enabled" integer DEFAULT 1 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_tourism_slot" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"preset_id" bigint NOT NULL,
	"day" date NOT NULL,
	"start_time" varchar(5) NOT NULL,
	"end_time" varchar(5) NOT NULL,
	"capacity" integer NOT NULL,
	"booked" integer DEFAULT 0 NOT NULL,
	"name" varchar(120),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_tourism_booking" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"slot_id" bigint NOT NULL,
	"visitor_name" varchar(30) NOT NULL,
	"phone" varchar(20) NOT NULL,
	"people" integer NOT NULL,
	"state" varchar(10),
	"code" varchar(10),
	"verified_by" varchar(64),
	"verified_at" timestamp with time zone,
	"remark" varchar(200),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "hope_tourism_preset_page_idx" ON "hope_tourism_preset" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_tourism_preset_name_uq" ON "hope_tourism_preset" USING btree ("tenant_id","name") WHERE is_deleted = 0 and name is not null;--> statement-breakpoint
CREATE INDEX "hope_tourism_preset_type_idx" ON "hope_tourism_preset" USING btree ("tenant_id","type","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_tourism_preset_name_trgm_idx" ON "hope_tourism_preset" USING gin ("name" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_tourism_preset_enabled_idx" ON "hope_tourism_preset" USING btree ("tenant_id","enabled","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_tourism_preset_name_label_idx" ON "hope_tourism_preset" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_tourism_route_page_idx" ON "hope_tourism_route" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_tourism_route_name_uq" ON "hope_tourism_route" USING btree ("tenant_id","name") WHERE is_deleted = 0 and name is not null;--> statement-breakpoint
CREATE INDEX "hope_tourism_route_name_trgm_idx" ON "hope_tourism_route" USING gin ("name" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_tourism_route_enabled_idx" ON "hope_tourism_route" USING btree ("tenant_id","enabled","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_tourism_route_name_label_idx" ON "hope_tourism_route" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_tourism_slot_page_idx" ON "hope_tourism_slot" USING btree ("tenant_id","day" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_tourism_slot_preset_id_day_start_time_uq" ON "hope_tourism_slot" USING btree ("tenant_id","preset_id","day","start_time") WHERE is_deleted = 0 and preset_id is not null and day is not null and start_time is not null;--> statement-breakpoint
CREATE INDEX "hope_tourism_slot_preset_id_idx" ON "hope_tourism_slot" USING btree ("preset_id");--> statement-breakpoint
CREATE INDEX "hope_tourism_slot_name_label_idx" ON "hope_tourism_slot" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_tourism_booking_page_idx" ON "hope_tourism_booking" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "hope_tourism_booking_code_uq" ON "hope_tourism_booking" USING btree ("tenant_id","code") WHERE is_deleted = 0 and code is not null;--> statement-breakpoint
CREATE INDEX "hope_tourism_booking_slot_id_idx" ON "hope_tourism_booking" USING btree ("slot_id");--> statement-breakpoint
CREATE INDEX "hope_tourism_booking_visitor_name_trgm_idx" ON "hope_tourism_booking" USING gin ("visitor_name" gin_trgm_ops) WITH (gin_pending_list_limit=64) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_tourism_booking_state_idx" ON "hope_tourism_booking" USING btree ("tenant_id","state","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;