CREATE TABLE "hope_party_activity" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"org_id" bigint NOT NULL,
	"title" varchar(100) NOT NULL,
	"activity_date" date NOT NULL,
	"place" varchar(100),
	"content" varchar(2000),
	"attendees" text,
	"attendance" integer,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hope_party_org" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"name" varchar(60) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"parent_id" bigint DEFAULT '0' NOT NULL,
	"secretary_id" bigint,
	"secretary_name" varchar(20),
	"founded_date" date,
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
CREATE TABLE "hope_party_pairing" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"member_id" bigint NOT NULL,
	"household_no" varchar(20) NOT NULL,
	"start_date" date NOT NULL,
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
DROP INDEX "hope_villager_party_page_idx";--> statement-breakpoint
DROP INDEX "hope_villager_party_member_type_idx";--> statement-breakpoint
ALTER TABLE "hope_villager_party" ALTER COLUMN "branch" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "hope_villager_party" ADD COLUMN "org_id" bigint;--> statement-breakpoint
ALTER TABLE "hope_villager_party" ADD COLUMN "probation_end" date;--> statement-breakpoint
CREATE INDEX "hope_party_activity_page_idx" ON "hope_party_activity" USING btree ("tenant_id","activity_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_party_activity_org_id_idx" ON "hope_party_activity" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "hope_party_activity_title_trgm_idx" ON "hope_party_activity" USING gin ("title" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_party_org_page_idx" ON "hope_party_org" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_party_org_name_trgm_idx" ON "hope_party_org" USING gin ("name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_party_org_kind_idx" ON "hope_party_org" USING btree ("tenant_id","kind","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_party_org_parent_id_idx" ON "hope_party_org" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "hope_party_org_secretary_id_idx" ON "hope_party_org" USING btree ("secretary_id");--> statement-breakpoint
CREATE INDEX "hope_party_org_name_label_idx" ON "hope_party_org" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_party_pairing_page_idx" ON "hope_party_pairing" USING btree ("tenant_id","start_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_party_pairing_member_id_idx" ON "hope_party_pairing" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "hope_party_pairing_household_no_idx" ON "hope_party_pairing" USING btree ("tenant_id","household_no","start_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_party_org_id_idx" ON "hope_villager_party" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "hope_villager_party_page_idx" ON "hope_villager_party" USING btree ("tenant_id","join_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_party_member_type_idx" ON "hope_villager_party" USING btree ("tenant_id","member_type","join_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;