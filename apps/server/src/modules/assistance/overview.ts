import { type AssistanceOverview, type AssistanceUnitFunds, INFORMATION_STATUS } from '@smart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { OverviewCall } from '../../platform/area';
import { countBy } from '../../platform/crud/count-by';
import { readableRows } from '../../platform/crud/refs';
import { notDeleted } from '../../platform/sql';
import {
  assistanceReception,
  careVideo,
  information,
  assistanceProject as project,
  assistanceUnit as unit,
} from './tables';

/**
 * The assistance overview (帮扶概览): figures computed in SQL from the rows the caller may read of each
 * resource it counts (tenant, live rows, data scope): units, projects and their funds, budget against
 * spend per unit, projects by status (dictionary-labelled by `countBy`), published news, videos.
 */

const NO_UNIT = { zh: '未指定单位', en: 'No unit' } as const;
const int = (x: unknown) => Number(x ?? 0);
/** an amount summed in SQL (numeric, two places) as a number of 元 */
const amount = (x: unknown) => Math.round(Number(x ?? 0) * 100) / 100;

export async function assistanceOverview({ req, ctx, db }: OverviewCall) {
  const lang = req.lang;
  const [units, projects, news, videos, receptions] = await Promise.all([
    readableRows('assistanceUnit', ctx),
    readableRows('assistanceProject', ctx),
    readableRows('information', ctx),
    readableRows('careVideo', ctx),
    readableRows('assistanceReception', ctx),
  ]);
  const money = (col: typeof project.budget) => sql<string>`coalesce(sum(${col}), 0)::numeric(18,2)`;
  const [[unitCount], [totals], [newsCount], [videoCount], [receptionCount], unitRows, byStatus] =
    await Promise.all([
      db.select({ n: sql<number>`count(*)::int` }).from(unit).where(units),
      db
        .select({
          n: sql<number>`count(*)::int`,
          budget: money(project.budget),
          spend: money(project.spend),
        })
        .from(project)
        .where(projects),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(information)
        .where(and(news, eq(information.publishStatus, INFORMATION_STATUS.published))),
      db.select({ n: sql<number>`count(*)::int` }).from(careVideo).where(videos),
      db.select({ n: sql<number>`count(*)::int` }).from(assistanceReception).where(receptions),
      db
        .select({
          key: project.unitId,
          name: unit.name,
          n: sql<number>`count(*)::int`,
          budget: money(project.budget),
          spend: money(project.spend),
        })
        .from(project)
        .leftJoin(
          unit,
          and(eq(unit.id, project.unitId), eq(unit.tenantId, project.tenantId), notDeleted(unit.isDeleted)),
        )
        .where(projects)
        .groupBy(project.unitId, unit.name)
        .orderBy(unit.name),
      countBy(req, 'assistanceProject', 'projectStatus'),
    ]);
  const byUnit: AssistanceUnitFunds[] = unitRows.map((r) => ({
    key: r.key ? String(r.key) : '',
    name: r.key && r.name ? r.name : NO_UNIT[lang],
    budget: amount(r.budget),
    spend: amount(r.spend),
    projects: int(r.n),
  }));
  const answer: AssistanceOverview = {
    units: int(unitCount.n),
    projects: int(totals.n),
    budget: amount(totals.budget),
    spend: amount(totals.spend),
    publishedNews: int(newsCount.n),
    videos: int(videoCount.n),
    receptions: int(receptionCount.n),
    byUnit,
    byStatus,
  };
  return answer;
}
