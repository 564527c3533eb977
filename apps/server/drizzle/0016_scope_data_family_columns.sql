ALTER TABLE "blade_scope_data" ADD COLUMN "scope_column" varchar(255);--> statement-breakpoint
ALTER TABLE "blade_scope_data" ADD COLUMN "scope_field" varchar(255);--> statement-breakpoint
ALTER TABLE "blade_scope_data" ADD COLUMN "scope_class" varchar(500);