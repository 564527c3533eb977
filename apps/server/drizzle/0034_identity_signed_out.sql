CREATE TABLE "app_identity" (
	"name" varchar(32) PRIMARY KEY NOT NULL,
	"value" varchar(64) NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_signed_out" (
	"family" varchar(64) PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "app_signed_out_expires_idx" ON "app_signed_out" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "app_signed_out_create_idx" ON "app_signed_out" USING btree ("create_time");