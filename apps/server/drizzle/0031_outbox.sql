CREATE TABLE "app_outbox" (
	"id" bigint PRIMARY KEY DEFAULT nextval('blade_id_seq') NOT NULL,
	"tenant_id" varchar(12) DEFAULT '000000' NOT NULL,
	"kind" varchar(64) NOT NULL,
	"payload" text NOT NULL,
	"due_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" varchar(255),
	"claimed_by" varchar(64),
	"done_at" timestamp with time zone,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "app_outbox_due_idx" ON "app_outbox" USING btree ("kind","due_at") WHERE done_at is null;