ALTER TABLE "blade_dict" ADD COLUMN "create_user" bigint;--> statement-breakpoint
ALTER TABLE "blade_dict" ADD COLUMN "create_dept" bigint;--> statement-breakpoint
ALTER TABLE "blade_dict" ADD COLUMN "create_time" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_dict" ADD COLUMN "update_user" bigint;--> statement-breakpoint
ALTER TABLE "blade_dict" ADD COLUMN "update_time" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_dict" ADD COLUMN "status" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_dict_biz" ADD COLUMN "create_user" bigint;--> statement-breakpoint
ALTER TABLE "blade_dict_biz" ADD COLUMN "create_dept" bigint;--> statement-breakpoint
ALTER TABLE "blade_dict_biz" ADD COLUMN "create_time" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_dict_biz" ADD COLUMN "update_user" bigint;--> statement-breakpoint
ALTER TABLE "blade_dict_biz" ADD COLUMN "update_time" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_dict_biz" ADD COLUMN "status" integer DEFAULT 1 NOT NULL;