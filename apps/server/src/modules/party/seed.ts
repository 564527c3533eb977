import { PARTY_DEMO } from '@smart/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { notDeleted } from '../../platform/sql';
import { insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { DEMO_VILLAGE } from '../village/seed';
import { villager } from '../village/tables';
import { partyActivity, partyOrganization, partyPairing, villagerToParty } from './tables';

/**
 * Party building: its dictionaries, and the demo village's party (tenant 000000): a general branch with two
 * branches, the members village affairs recorded placed in them (probationary ones with the day their
 * probation ends, a few within the next month), members' pairings with households, and activities with
 * their attendance. Deterministic: the same party on every machine, dated from today.
 */
export async function seedParty(db: Db) {
  const tenantId = '000000';
  const base = { tenantId, createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  const today = formatDateTime(new Date()).slice(0, 10);
  const day = (offset: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  const people = await db
    .select({ id: villager.id, householdNo: villager.householdNo, politicalStatus: villager.politicalStatus })
    .from(villager)
    .where(and(eq(villager.tenantId, tenantId), notDeleted(villager.isDeleted)))
    .orderBy(asc(villager.id));
  const secretary = people.find((p) => p.id === PARTY_DEMO.villagerId);
  const root = PARTY_DEMO.orgId;
  const [first, second] = ['1190000000000800002', '1190000000000800003'];
  await insertAll(db, partyOrganization, [
    {
      ...base,
      id: root,
      name: `${DEMO_VILLAGE.name}党总支`,
      kind: '2',
      parentId: '0',
      secretaryId: secretary?.id ?? null,
      foundedDate: '1958-07-01',
    },
    { ...base, id: first, name: '第一党支部', kind: '3', parentId: root, foundedDate: '2012-07-01' },
    { ...base, id: second, name: '第二党支部', kind: '3', parentId: root, foundedDate: '2012-07-01' },
  ]);
  if (!people.length) return;

  const listMembers = () =>
    db
      .select({
        id: villagerToParty.id,
        villagerId: villagerToParty.villagerId,
        type: villagerToParty.memberType,
      })
      .from(villagerToParty)
      .where(and(eq(villagerToParty.tenantId, tenantId), notDeleted(villagerToParty.isDeleted)))
      .orderBy(asc(villagerToParty.id));
  let members = await listMembers();
  // the villager the generated tests name as a sample member is one
  if (secretary && !members.some((x) => x.villagerId === secretary.id)) {
    await db.update(villager).set({ politicalStatus: '2' }).where(eq(villager.id, secretary.id));
    await insertAll(db, villagerToParty, [
      { ...base, villagerId: secretary.id, memberType: '1', joinDate: '2005-07-01', partyPost: '党员' },
    ]);
    members = await listMembers();
  }
  // the reminder has something to show: league members admitted as probationary when the draw made few
  const wanted = 3 - members.filter((x) => x.type === '2').length;
  if (wanted > 0) {
    const league = people.filter((p) => p.politicalStatus === '4').slice(0, wanted);
    for (const p of league)
      await db.update(villager).set({ politicalStatus: '3' }).where(eq(villager.id, p.id));
    await insertAll(
      db,
      villagerToParty,
      league.map((p) => ({ ...base, villagerId: p.id, memberType: '2', joinDate: today })),
    );
    members = await listMembers();
  }
  let probationary = 0;
  for (const [i, mem] of members.entries()) {
    const orgId = mem.villagerId === PARTY_DEMO.villagerId ? root : i % 2 ? second : first;
    if (mem.type === '2') {
      // a probation of one year, joined 340, 295, … days ago: the first ends in 25 days, the next in 70 …
      const ago = 340 - (probationary++ % 7) * 45;
      await db
        .update(villagerToParty)
        .set({ orgId, joinDate: day(-ago), probationEnd: day(365 - ago) })
        .where(eq(villagerToParty.id, mem.id));
    } else await db.update(villagerToParty).set({ orgId }).where(eq(villagerToParty.id, mem.id));
  }

  const households = [...new Set(people.map((p) => p.householdNo))];
  const full = members.filter((x) => x.type !== '2');
  await insertAll(
    db,
    partyPairing,
    households
      .filter((_, i) => i % 3 !== 2)
      .map((householdNo, i) => ({
        ...base,
        memberId: full[i % Math.max(1, full.length)]?.villagerId ?? PARTY_DEMO.villagerId,
        householdNo,
        startDate: day(-30 * (1 + (i % 12))),
        note: i % 4 === 0 ? '每月走访一次,了解生产生活困难' : null,
      })),
  );

  const topics = [
    ['主题党日:学习党的二十大精神', '村部会议室'],
    ['三会一课:支部党员大会', '村部会议室'],
    ['党员志愿服务:清扫村道', '村主干道'],
    ['重温入党誓词', '村史馆'],
    ['走访慰问困难党员', '各村民小组'],
    ['组织生活会', '村部会议室'],
  ] as const;
  await insertAll(
    db,
    partyActivity,
    topics.map(([title, place], i) => {
      const present = members
        .filter((_, j) => (j + i) % 3 !== 0)
        .slice(0, 30)
        .map((x) => x.villagerId);
      return {
        ...base,
        orgId: i % 2 ? second : first,
        title,
        activityDate: day(-20 - i * 30),
        place,
        content: `${title}。`,
        attendees: present.join(','),
        attendance: present.length,
      };
    }),
  );
}
