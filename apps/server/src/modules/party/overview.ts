import type { PartyCount, PartyOverview } from '@smart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { OverviewCall } from '../../platform/area';
import { countBy } from '../../platform/crud/count-by';
import { readableRows } from '../../platform/crud/refs';
import { notDeleted } from '../../platform/sql';
import { villager as v } from '../village/tables';
import { villagerToParty as m, partyOrganization as org, partyActivity, partyPairing } from './tables';

/**
 * The party overview (党建概览): figures computed from the rows the caller may read of each resource it
 * counts (tenant, live rows, data scope): members by branch, by age band and by education (from the linked
 * villager, dictionary-labelled by `countBy`), and how many of the households a member looks after.
 */

const NO_BRANCH = { zh: '未分配', en: 'Not assigned' } as const;
const AGE_BANDS = [
  { key: '0', zh: '35岁以下', en: 'Under 35' },
  { key: '1', zh: '35-49岁', en: '35–49' },
  { key: '2', zh: '50-59岁', en: '50–59' },
  { key: '3', zh: '60岁及以上', en: '60 and over' },
  { key: '9', zh: '未登记', en: 'Not recorded' },
] as const;
const int = (x: unknown) => Number(x ?? 0);

export async function partyOverview({ req, ctx, db }: OverviewCall) {
  const lang = req.lang;
  const [members, orgs, activities, pairings, villagers] = await Promise.all([
    readableRows('villagerToParty', ctx),
    readableRows('partyOrganization', ctx),
    readableRows('partyActivity', ctx),
    readableRows('partyPairing', ctx),
    readableRows('villager', ctx),
  ]);
  const memberVillagers = db.select({ id: m.villagerId }).from(m).where(members);
  const band = sql<string>`case
    when ${v.birthDate} is null then '9'
    when ${v.birthDate} > (current_date - interval '35 years') then '0'
    when ${v.birthDate} > (current_date - interval '50 years') then '1'
    when ${v.birthDate} > (current_date - interval '60 years') then '2'
    else '3' end`;
  const [[totals], [orgCount], [activityCount], branchRows, ageRows, byEducation, [households], [paired]] =
    await Promise.all([
      db
        .select({
          members: sql<number>`count(*)::int`,
          probationary: sql<number>`(count(*) filter (where ${m.memberType} = '2'))::int`,
        })
        .from(m)
        .where(members),
      db.select({ n: sql<number>`count(*)::int` }).from(org).where(orgs),
      db.select({ n: sql<number>`count(*)::int` }).from(partyActivity).where(activities),
      db
        .select({ key: m.orgId, name: org.name, n: sql<number>`count(*)::int` })
        .from(m)
        .leftJoin(org, and(eq(org.id, m.orgId), eq(org.tenantId, m.tenantId), notDeleted(org.isDeleted)))
        .where(members)
        .groupBy(m.orgId, org.name)
        .orderBy(org.name),
      db
        .select({ band, n: sql<number>`count(*)::int` })
        .from(m)
        .leftJoin(v, and(eq(v.id, m.villagerId), eq(v.tenantId, m.tenantId), notDeleted(v.isDeleted)))
        .where(members)
        .groupBy(band),
      countBy(req, 'villager', 'education', sql`${v.id} in (${memberVillagers})`),
      db
        .select({ n: sql<number>`count(distinct ${v.householdNo})::int` })
        .from(v)
        .where(villagers),
      db
        .select({ n: sql<number>`count(distinct ${v.householdNo})::int` })
        .from(v)
        .where(
          and(
            villagers,
            sql`${v.householdNo} in (${db.select({ no: partyPairing.householdNo }).from(partyPairing).where(pairings)})`,
          ),
        ),
    ]);
  const byBranch: PartyCount[] = branchRows.map((r) => ({
    key: r.key ? String(r.key) : '',
    name: r.key && r.name ? r.name : NO_BRANCH[lang],
    value: int(r.n),
  }));
  const byAge: PartyCount[] = AGE_BANDS.map((b) => ({
    key: b.key,
    name: b[lang],
    value: int(ageRows.find((r) => r.band === b.key)?.n),
  })).filter((b) => b.key !== '9' || b.value > 0);
  const answer: PartyOverview = {
    members: int(totals.members),
    probationary: int(totals.probationary),
    organisations: int(orgCount.n),
    activities: int(activityCount.n),
    byBranch,
    byAge,
    byEducation,
    households: int(households.n),
    pairedHouseholds: int(paired.n),
  };
  return answer;
}
