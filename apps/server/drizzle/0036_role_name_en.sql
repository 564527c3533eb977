ALTER TABLE "blade_role" ADD COLUMN "name_en" varchar(255);--> statement-breakpoint
UPDATE "blade_role" SET "name_en" = CASE "role_name" WHEN '超级管理员' THEN 'Super administrator' WHEN '普通用户' THEN 'Ordinary user' WHEN '管理员' THEN 'Administrator' END WHERE "name_en" IS NULL AND "role_name" IN ('超级管理员', '普通用户', '管理员');
