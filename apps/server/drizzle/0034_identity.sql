CREATE TABLE "app_identity" (
	"name" varchar(32) PRIMARY KEY NOT NULL,
	"value" varchar(64) NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
