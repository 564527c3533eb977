-- Village tables as their definitions derive them (platform/crud/model.ts). A required field becomes NOT NULL,
-- and a unique field gets its unique index, only where the rows allow it (an older database keeps its rows).
DROP INDEX "hope_filing_record_date_idx";--> statement-breakpoint
DROP INDEX "hope_policy_people_villager_idx";--> statement-breakpoint
DROP INDEX "hope_score_record_date_idx";--> statement-breakpoint
DROP INDEX "hope_score_record_villager_idx";--> statement-breakpoint
DROP INDEX "hope_score_rule_tenant_idx";--> statement-breakpoint
DROP INDEX "hope_vehicle_owner_idx";--> statement-breakpoint
DROP INDEX "hope_village_duty_date_idx";--> statement-breakpoint
DROP INDEX "hope_villager_household_idx";--> statement-breakpoint
DROP INDEX "hope_villager_group_idx";--> statement-breakpoint
DROP INDEX "hope_villager_name_idx";--> statement-breakpoint
DROP INDEX "hope_villager_income_year_idx";--> statement-breakpoint
DROP INDEX "hope_villager_income_villager_idx";--> statement-breakpoint
DROP INDEX "hope_villager_cadre_villager_idx";--> statement-breakpoint
DROP INDEX "hope_villager_grid_villager_idx";--> statement-breakpoint
DROP INDEX "hope_villager_org_villager_idx";--> statement-breakpoint
DROP INDEX "hope_villager_party_villager_idx";--> statement-breakpoint
DROP INDEX "hope_visiting_reception_date_idx";--> statement-breakpoint
DROP INDEX "hope_visiting_record_date_idx";--> statement-breakpoint
DROP INDEX "hope_visiting_record_villager_idx";--> statement-breakpoint
DROP INDEX "hope_evaluation_task_page_idx";--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_duplex_charge" WHERE "leader_id" IS NULL) THEN ALTER TABLE "hope_duplex_charge" ALTER COLUMN "leader_id" SET NOT NULL; END IF; END $$;--> statement-breakpoint
ALTER TABLE "hope_duplex_charge" ALTER COLUMN "phone" SET DATA TYPE varchar(20);--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_evaluation_task" WHERE "title" IS NULL) THEN ALTER TABLE "hope_evaluation_task" ALTER COLUMN "title" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_evaluation_task" WHERE "assignee_id" IS NULL) THEN ALTER TABLE "hope_evaluation_task" ALTER COLUMN "assignee_id" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_evaluation_task" WHERE "task_status" IS NULL) THEN ALTER TABLE "hope_evaluation_task" ALTER COLUMN "task_status" SET NOT NULL; END IF; END $$;--> statement-breakpoint
ALTER TABLE "hope_evaluation_task" ALTER COLUMN "score" SET DATA TYPE numeric(14, 2);--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_filing_record" WHERE "applicant_id" IS NULL) THEN ALTER TABLE "hope_filing_record" ALTER COLUMN "applicant_id" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_filing_record" WHERE "kind" IS NULL) THEN ALTER TABLE "hope_filing_record" ALTER COLUMN "kind" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_filing_record" WHERE "event_date" IS NULL) THEN ALTER TABLE "hope_filing_record" ALTER COLUMN "event_date" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_filing_record" WHERE "filing_status" IS NULL) THEN ALTER TABLE "hope_filing_record" ALTER COLUMN "filing_status" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_guarantee_group" WHERE "group_name" IS NULL) THEN ALTER TABLE "hope_guarantee_group" ALTER COLUMN "group_name" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_guarantee_group" WHERE "leader_id" IS NULL) THEN ALTER TABLE "hope_guarantee_group" ALTER COLUMN "leader_id" SET NOT NULL; END IF; END $$;--> statement-breakpoint
ALTER TABLE "hope_guarantee_group" ALTER COLUMN "phone" SET DATA TYPE varchar(20);--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_policy_people" WHERE "policy_name" IS NULL) THEN ALTER TABLE "hope_policy_people" ALTER COLUMN "policy_name" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_policy_people" WHERE "benefit" IS NULL) THEN ALTER TABLE "hope_policy_people" ALTER COLUMN "benefit" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_policy_people" WHERE "grant_status" IS NULL) THEN ALTER TABLE "hope_policy_people" ALTER COLUMN "grant_status" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_score_record" WHERE "rule_id" IS NULL) THEN ALTER TABLE "hope_score_record" ALTER COLUMN "rule_id" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_score_record" WHERE "record_date" IS NULL) THEN ALTER TABLE "hope_score_record" ALTER COLUMN "record_date" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_score_rule" WHERE "category" IS NULL) THEN ALTER TABLE "hope_score_rule" ALTER COLUMN "category" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_score_rule" WHERE "rule_name" IS NULL) THEN ALTER TABLE "hope_score_rule" ALTER COLUMN "rule_name" SET NOT NULL; END IF; END $$;--> statement-breakpoint
ALTER TABLE "hope_score_rule" ALTER COLUMN "points" DROP DEFAULT;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_security_charge" WHERE "leader_id" IS NULL) THEN ALTER TABLE "hope_security_charge" ALTER COLUMN "leader_id" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_security_charge" WHERE "area" IS NULL) THEN ALTER TABLE "hope_security_charge" ALTER COLUMN "area" SET NOT NULL; END IF; END $$;--> statement-breakpoint
ALTER TABLE "hope_security_charge" ALTER COLUMN "phone" SET DATA TYPE varchar(20);--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_vehicle" WHERE "plate_no" IS NULL) THEN ALTER TABLE "hope_vehicle" ALTER COLUMN "plate_no" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_vehicle" WHERE "vehicle_type" IS NULL) THEN ALTER TABLE "hope_vehicle" ALTER COLUMN "vehicle_type" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_vehicle" WHERE "owner_id" IS NULL) THEN ALTER TABLE "hope_vehicle" ALTER COLUMN "owner_id" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_vehicle" WHERE "usage" IS NULL) THEN ALTER TABLE "hope_vehicle" ALTER COLUMN "usage" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_village_duty" WHERE "duty_date" IS NULL) THEN ALTER TABLE "hope_village_duty" ALTER COLUMN "duty_date" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_village_duty" WHERE "shift" IS NULL) THEN ALTER TABLE "hope_village_duty" ALTER COLUMN "shift" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_village_duty" WHERE "cadre_id" IS NULL) THEN ALTER TABLE "hope_village_duty" ALTER COLUMN "cadre_id" SET NOT NULL; END IF; END $$;--> statement-breakpoint
ALTER TABLE "hope_village_duty" ALTER COLUMN "phone" SET DATA TYPE varchar(20);--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_village_overview" WHERE "item_name" IS NULL) THEN ALTER TABLE "hope_village_overview" ALTER COLUMN "item_name" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_village_overview" WHERE "item_value" IS NULL) THEN ALTER TABLE "hope_village_overview" ALTER COLUMN "item_value" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_village_review" WHERE "subject" IS NULL) THEN ALTER TABLE "hope_village_review" ALTER COLUMN "subject" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_village_review" WHERE "review_kind" IS NULL) THEN ALTER TABLE "hope_village_review" ALTER COLUMN "review_kind" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_village_review" WHERE "period" IS NULL) THEN ALTER TABLE "hope_village_review" ALTER COLUMN "period" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_village_rule" WHERE "title" IS NULL) THEN ALTER TABLE "hope_village_rule" ALTER COLUMN "title" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_village_rule" WHERE "effective_date" IS NULL) THEN ALTER TABLE "hope_village_rule" ALTER COLUMN "effective_date" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_village_rule" WHERE "content" IS NULL) THEN ALTER TABLE "hope_village_rule" ALTER COLUMN "content" SET NOT NULL; END IF; END $$;--> statement-breakpoint
ALTER TABLE "hope_villager" ALTER COLUMN "sex" SET DATA TYPE varchar(10);--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager" WHERE "sex" IS NULL) THEN ALTER TABLE "hope_villager" ALTER COLUMN "sex" SET NOT NULL; END IF; END $$;--> statement-breakpoint
ALTER TABLE "hope_villager" ALTER COLUMN "ethnicity" SET DEFAULT '1';--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager" WHERE "ethnicity" IS NULL) THEN ALTER TABLE "hope_villager" ALTER COLUMN "ethnicity" SET NOT NULL; END IF; END $$;--> statement-breakpoint
ALTER TABLE "hope_villager" ALTER COLUMN "phone" SET DATA TYPE varchar(20);--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager" WHERE "relation" IS NULL) THEN ALTER TABLE "hope_villager" ALTER COLUMN "relation" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager" WHERE "village_group" IS NULL) THEN ALTER TABLE "hope_villager" ALTER COLUMN "village_group" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager_income" WHERE "year" IS NULL) THEN ALTER TABLE "hope_villager_income" ALTER COLUMN "year" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager_income" WHERE "family_size" IS NULL) THEN ALTER TABLE "hope_villager_income" ALTER COLUMN "family_size" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager_cadre" WHERE "position" IS NULL) THEN ALTER TABLE "hope_villager_cadre" ALTER COLUMN "position" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager_cadre" WHERE "term_start" IS NULL) THEN ALTER TABLE "hope_villager_cadre" ALTER COLUMN "term_start" SET NOT NULL; END IF; END $$;--> statement-breakpoint
ALTER TABLE "hope_villager_cadre" ALTER COLUMN "phone" SET DATA TYPE varchar(20);--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager_grid" WHERE "grid_name" IS NULL) THEN ALTER TABLE "hope_villager_grid" ALTER COLUMN "grid_name" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager_grid" WHERE "grid_role" IS NULL) THEN ALTER TABLE "hope_villager_grid" ALTER COLUMN "grid_role" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager_org" WHERE "org_kind" IS NULL) THEN ALTER TABLE "hope_villager_org" ALTER COLUMN "org_kind" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager_org" WHERE "org_name" IS NULL) THEN ALTER TABLE "hope_villager_org" ALTER COLUMN "org_name" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager_party" WHERE "member_type" IS NULL) THEN ALTER TABLE "hope_villager_party" ALTER COLUMN "member_type" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager_party" WHERE "branch" IS NULL) THEN ALTER TABLE "hope_villager_party" ALTER COLUMN "branch" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_villager_party" WHERE "join_date" IS NULL) THEN ALTER TABLE "hope_villager_party" ALTER COLUMN "join_date" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_visiting_reception" WHERE "visitor_name" IS NULL) THEN ALTER TABLE "hope_visiting_reception" ALTER COLUMN "visitor_name" SET NOT NULL; END IF; END $$;--> statement-breakpoint
ALTER TABLE "hope_visiting_reception" ALTER COLUMN "visitor_phone" SET DATA TYPE varchar(20);--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_visiting_reception" WHERE "reception_date" IS NULL) THEN ALTER TABLE "hope_visiting_reception" ALTER COLUMN "reception_date" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_visiting_reception" WHERE "matter_kind" IS NULL) THEN ALTER TABLE "hope_visiting_reception" ALTER COLUMN "matter_kind" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_visiting_reception" WHERE "matter" IS NULL) THEN ALTER TABLE "hope_visiting_reception" ALTER COLUMN "matter" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_visiting_reception" WHERE "handler_id" IS NULL) THEN ALTER TABLE "hope_visiting_reception" ALTER COLUMN "handler_id" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_visiting_reception" WHERE "result_status" IS NULL) THEN ALTER TABLE "hope_visiting_reception" ALTER COLUMN "result_status" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_visiting_record" WHERE "visitor_id" IS NULL) THEN ALTER TABLE "hope_visiting_record" ALTER COLUMN "visitor_id" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_visiting_record" WHERE "villager_id" IS NULL) THEN ALTER TABLE "hope_visiting_record" ALTER COLUMN "villager_id" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_visiting_record" WHERE "visit_date" IS NULL) THEN ALTER TABLE "hope_visiting_record" ALTER COLUMN "visit_date" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_visiting_record" WHERE "visit_kind" IS NULL) THEN ALTER TABLE "hope_visiting_record" ALTER COLUMN "visit_kind" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_visiting_record" WHERE "content" IS NULL) THEN ALTER TABLE "hope_visiting_record" ALTER COLUMN "content" SET NOT NULL; END IF; END $$;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_visiting_record" WHERE "follow_status" IS NULL) THEN ALTER TABLE "hope_visiting_record" ALTER COLUMN "follow_status" SET NOT NULL; END IF; END $$;--> statement-breakpoint
CREATE INDEX "hope_duplex_charge_page_idx" ON "hope_duplex_charge" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_duplex_charge_leader_id_idx" ON "hope_duplex_charge" USING btree ("leader_id");--> statement-breakpoint
CREATE INDEX "hope_duplex_charge_grid_name_trgm_idx" ON "hope_duplex_charge" USING gin ("grid_name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_task_title_trgm_idx" ON "hope_evaluation_task" USING gin ("title" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_task_assignee_id_idx" ON "hope_evaluation_task" USING btree ("assignee_id");--> statement-breakpoint
CREATE INDEX "hope_evaluation_task_task_status_idx" ON "hope_evaluation_task" USING btree ("tenant_id","task_status","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_task_grade_idx" ON "hope_evaluation_task" USING btree ("tenant_id","grade","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_filing_record_page_idx" ON "hope_filing_record" USING btree ("tenant_id","event_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_filing_record_applicant_id_idx" ON "hope_filing_record" USING btree ("applicant_id");--> statement-breakpoint
CREATE INDEX "hope_filing_record_kind_idx" ON "hope_filing_record" USING btree ("tenant_id","kind","event_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_filing_record_filing_status_idx" ON "hope_filing_record" USING btree ("tenant_id","filing_status","event_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_guarantee_group_page_idx" ON "hope_guarantee_group" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_guarantee_group_group_name_trgm_idx" ON "hope_guarantee_group" USING gin ("group_name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_guarantee_group_leader_id_idx" ON "hope_guarantee_group" USING btree ("leader_id");--> statement-breakpoint
CREATE INDEX "hope_policy_people_policy_name_trgm_idx" ON "hope_policy_people" USING gin ("policy_name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_policy_people_villager_id_idx" ON "hope_policy_people" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_policy_people_grant_status_idx" ON "hope_policy_people" USING btree ("tenant_id","grant_status","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_score_record_page_idx" ON "hope_score_record" USING btree ("tenant_id","record_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_score_record_villager_id_idx" ON "hope_score_record" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_score_record_rule_id_idx" ON "hope_score_record" USING btree ("rule_id");--> statement-breakpoint
CREATE INDEX "hope_score_rule_page_idx" ON "hope_score_rule" USING btree ("tenant_id","sort","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_score_rule_category_idx" ON "hope_score_rule" USING btree ("tenant_id","category","sort","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_score_rule_rule_name_trgm_idx" ON "hope_score_rule" USING gin ("rule_name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_score_rule_enabled_idx" ON "hope_score_rule" USING btree ("tenant_id","enabled","sort","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_score_rule_rule_name_label_idx" ON "hope_score_rule" USING btree ("tenant_id","rule_name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_security_charge_page_idx" ON "hope_security_charge" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_security_charge_leader_id_idx" ON "hope_security_charge" USING btree ("leader_id");--> statement-breakpoint
CREATE INDEX "hope_security_charge_area_trgm_idx" ON "hope_security_charge" USING gin ("area" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_vehicle_page_idx" ON "hope_vehicle" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM "hope_vehicle" WHERE is_deleted = 0 AND plate_no IS NOT NULL GROUP BY "tenant_id","plate_no" HAVING count(*) > 1) THEN CREATE UNIQUE INDEX "hope_vehicle_plate_no_uq" ON "hope_vehicle" USING btree ("tenant_id","plate_no") WHERE is_deleted = 0 and plate_no is not null; END IF; END $$;--> statement-breakpoint
CREATE INDEX "hope_vehicle_plate_no_trgm_idx" ON "hope_vehicle" USING gin ("plate_no" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_vehicle_vehicle_type_idx" ON "hope_vehicle" USING btree ("tenant_id","vehicle_type","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_vehicle_owner_id_idx" ON "hope_vehicle" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "hope_village_duty_page_idx" ON "hope_village_duty" USING btree ("tenant_id","duty_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_village_duty_shift_idx" ON "hope_village_duty" USING btree ("tenant_id","shift","duty_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_village_duty_cadre_id_idx" ON "hope_village_duty" USING btree ("cadre_id");--> statement-breakpoint
CREATE INDEX "hope_village_overview_page_idx" ON "hope_village_overview" USING btree ("tenant_id","sort","id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_village_overview_item_name_trgm_idx" ON "hope_village_overview" USING gin ("item_name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_village_review_page_idx" ON "hope_village_review" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_village_review_subject_trgm_idx" ON "hope_village_review" USING gin ("subject" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_village_review_review_kind_idx" ON "hope_village_review" USING btree ("tenant_id","review_kind","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_village_review_result_idx" ON "hope_village_review" USING btree ("tenant_id","result","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_village_rule_page_idx" ON "hope_village_rule" USING btree ("tenant_id","effective_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_village_rule_title_trgm_idx" ON "hope_village_rule" USING gin ("title" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_village_rule_published_idx" ON "hope_village_rule" USING btree ("tenant_id","published","effective_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_sex_idx" ON "hope_villager" USING btree ("tenant_id","sex","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_household_no_idx" ON "hope_villager" USING btree ("tenant_id","household_no","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_village_group_idx" ON "hope_villager" USING btree ("tenant_id","village_group","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_political_status_idx" ON "hope_villager" USING btree ("tenant_id","political_status","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_poverty_alleviated_idx" ON "hope_villager" USING btree ("tenant_id","poverty_alleviated","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_low_income_idx" ON "hope_villager" USING btree ("tenant_id","low_income","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_name_label_idx" ON "hope_villager" USING btree ("tenant_id","name","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_income_page_idx" ON "hope_villager_income" USING btree ("tenant_id","year" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_income_villager_id_idx" ON "hope_villager_income" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_villager_cadre_villager_id_idx" ON "hope_villager_cadre" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_villager_cadre_position_idx" ON "hope_villager_cadre" USING btree ("tenant_id","position","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_cadre_in_office_idx" ON "hope_villager_cadre" USING btree ("tenant_id","in_office","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_grid_villager_id_idx" ON "hope_villager_grid" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_villager_grid_grid_name_trgm_idx" ON "hope_villager_grid" USING gin ("grid_name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_grid_grid_role_idx" ON "hope_villager_grid" USING btree ("tenant_id","grid_role","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_org_villager_id_idx" ON "hope_villager_org" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_villager_org_org_kind_idx" ON "hope_villager_org" USING btree ("tenant_id","org_kind","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_org_org_name_trgm_idx" ON "hope_villager_org" USING gin ("org_name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_villager_party_villager_id_idx" ON "hope_villager_party" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_villager_party_member_type_idx" ON "hope_villager_party" USING btree ("tenant_id","member_type","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_visiting_reception_page_idx" ON "hope_visiting_reception" USING btree ("tenant_id","reception_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_visiting_reception_visitor_name_trgm_idx" ON "hope_visiting_reception" USING gin ("visitor_name" gin_trgm_ops) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_visiting_reception_matter_kind_idx" ON "hope_visiting_reception" USING btree ("tenant_id","matter_kind","reception_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_visiting_reception_handler_id_idx" ON "hope_visiting_reception" USING btree ("handler_id");--> statement-breakpoint
CREATE INDEX "hope_visiting_reception_result_status_idx" ON "hope_visiting_reception" USING btree ("tenant_id","result_status","reception_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_visiting_record_page_idx" ON "hope_visiting_record" USING btree ("tenant_id","visit_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_visiting_record_visitor_id_idx" ON "hope_visiting_record" USING btree ("visitor_id");--> statement-breakpoint
CREATE INDEX "hope_visiting_record_villager_id_idx" ON "hope_visiting_record" USING btree ("villager_id");--> statement-breakpoint
CREATE INDEX "hope_visiting_record_visit_kind_idx" ON "hope_visiting_record" USING btree ("tenant_id","visit_kind","visit_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_visiting_record_follow_status_idx" ON "hope_visiting_record" USING btree ("tenant_id","follow_status","visit_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "hope_evaluation_task_page_idx" ON "hope_evaluation_task" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;