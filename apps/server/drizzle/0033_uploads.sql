CREATE TABLE "app_upload" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"user_id" bigint NOT NULL,
	"path" varchar(255) NOT NULL,
	"size" bigint NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "app_upload_path_uq" ON "app_upload" USING btree ("path");--> statement-breakpoint
CREATE INDEX "app_upload_user_idx" ON "app_upload" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "app_upload_tenant_idx" ON "app_upload" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "app_upload_due_idx" ON "app_upload" USING btree ("due_at");