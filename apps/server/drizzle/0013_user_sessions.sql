ALTER TABLE "blade_user" ADD COLUMN "session_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_user" ADD COLUMN "session_keep_family" varchar(64);