import { gradeOfScore, idCardCheckDigit, VILLAGE_DEMO } from '@smart/contracts';
import type { Db } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { villagerToParty } from '../party/tables';
import {
  addDays,
  FEMALE,
  MALE,
  type Person,
  pad,
  REGION,
  rng,
  SPOUSE_SURNAMES,
  SURNAMES,
  ymd,
} from './demo-people';
import * as t from './tables';

/**
 * Village affairs: the dictionaries its screens use (platform dictionaries, blade_dict, declared with their
 * values in both languages in @smart/contracts dicts.ts) and a demo village, 青山村, in tenant 000000: a
 * few hundred villagers in households across six village groups, with valid ID numbers, cadres, party
 * members, organisations, grids, duties, tasks, score rules and records, incomes, visits, receptions and
 * the rest. Generated from a fixed seed (the same village on every machine) and written in a handful of
 * batched inserts.
 */

/** The village's own names and numbers, kept so later steps and tests can find them. */
export const DEMO_VILLAGE = { name: '青山村', branch: '青山村党支部', households: 90 } as const;

export async function seedVillage(db: Db) {
  await seedDemoVillage(db);
}

async function seedDemoVillage(db: Db) {
  const r = rng(20260101);
  const today = new Date(`${formatDateTime(new Date()).slice(0, 10)}T00:00:00Z`);
  const year = today.getUTCFullYear();
  const base = { tenantId: '000000', createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  const usedIds = new Set<string>();
  let nextId = BigInt(VILLAGE_DEMO.villagerId);
  const people: Person[] = [];
  const rows: Record<string, unknown>[] = [];

  const idCard = (birth: Date, sex: 1 | 2) => {
    for (;;) {
      const seq = r.int(0, 99) * 10 + (sex === 1 ? r.pick([1, 3, 5, 7, 9]) : r.pick([0, 2, 4, 6, 8]));
      const first = `${REGION}${ymd(birth).replaceAll('-', '')}${pad(seq, 3)}`;
      const id = first + idCardCheckDigit(first);
      if (!usedIds.has(id)) {
        usedIds.add(id);
        return id;
      }
    }
  };
  const birthAt = (age: number) => addDays(today, -Math.round((age + r.next()) * 365.25));
  const ageOf = (birth: Date) => Math.floor((today.getTime() - birth.getTime()) / (365.25 * 86_400_000));
  const given = (sex: 1 | 2) =>
    Array.from({ length: r.chance(0.6) ? 2 : 1 }, () => r.pick(sex === 1 ? MALE : FEMALE)).join('');
  const phone = () =>
    `1${r.pick(['3', '5', '7', '8', '9'])}${String(r.int(0, 999_999_999)).padStart(9, '0')}`;

  const add = (
    p: Omit<Person, 'id'>,
    household: { lowIncome: boolean; poverty: boolean; alone: boolean },
  ) => {
    const id = String(nextId++);
    const person = { ...p, id };
    people.push(person);
    const age = ageOf(p.birth);
    const party = age >= 22 && r.chance(age > 45 ? 0.12 : 0.06);
    const league = !party && age >= 14 && age <= 28 && r.chance(0.5);
    const political = party ? (age < 28 && r.chance(0.3) ? '3' : '2') : league ? '4' : '1';
    const education =
      age < 6
        ? '1'
        : age < 12
          ? '2'
          : age > 70
            ? r.pick(['7', '2', '2'])
            : r.pick(['2', '3', '3', '3', '4', '4', '5', '6']);
    const marital = age < 22 ? '1' : age > 72 && r.chance(0.3) ? '4' : r.chance(0.06) ? '3' : '2';
    const labour = age < 16 ? '4' : age > 75 ? '3' : age > 60 ? '2' : r.chance(0.04) ? '3' : '1';
    rows.push({
      ...base,
      id,
      name: p.name,
      sex: String(p.sex),
      ethnicity: r.chance(0.06) ? '15' : r.chance(0.03) ? '6' : '1',
      idCard: idCard(p.birth, p.sex),
      phone: age >= 18 && age <= 75 ? phone() : null,
      birthDate: ymd(p.birth),
      householdNo: p.householdNo,
      relation: p.relation,
      villageGroup: p.group,
      address: `${DEMO_VILLAGE.name}${['一', '二', '三', '四', '五', '六'][Number(p.group) - 1]}组${Number(p.householdNo.slice(2))}号`,
      politicalStatus: political,
      education,
      maritalStatus: marital,
      labourStatus: labour,
      povertyAlleviated: household.poverty ? 1 : 0,
      lowIncome: household.lowIncome ? 1 : 0,
      disabled: r.chance(0.03) ? 1 : 0,
      veteran: p.sex === 1 && age >= 35 && age <= 70 && r.chance(0.06) ? 1 : 0,
      livingAlone: household.alone ? 1 : 0,
      remark: null,
    });
    return person;
  };

  for (let h = 1; h <= DEMO_VILLAGE.households; h++) {
    const householdNo = `QS${pad(h, 4)}`;
    const group = String(((h - 1) % 6) + 1);
    const surname = r.pick(SURNAMES);
    const alone = h % 15 === 0;
    const household = { lowIncome: r.chance(0.06) || alone, poverty: r.chance(0.1), alone };
    const headAge = alone ? r.int(70, 86) : r.int(28, 78);
    const headSex: 1 | 2 = alone ? (r.chance(0.5) ? 1 : 2) : r.chance(0.9) ? 1 : 2;
    const head = add(
      {
        name: surname + given(headSex),
        sex: headSex,
        birth: birthAt(headAge),
        relation: '1',
        householdNo,
        group,
      },
      household,
    );
    if (alone) continue;
    const spouseSex: 1 | 2 = headSex === 1 ? 2 : 1;
    if (r.chance(0.92))
      add(
        {
          name: r.pick(SPOUSE_SURNAMES) + given(spouseSex),
          sex: spouseSex,
          birth: birthAt(Math.max(20, headAge + r.int(-5, 3))),
          relation: '2',
          householdNo,
          group,
        },
        household,
      );
    const children = headAge < 30 ? r.int(0, 1) : r.int(1, 3);
    const familyName = headSex === 1 ? surname : head.name[0];
    for (let c = 0; c < children; c++) {
      const childAge = Math.max(0, headAge - r.int(23, 33) - c * r.int(1, 4));
      const sex: 1 | 2 = r.chance(0.52) ? 1 : 2;
      add(
        { name: familyName + given(sex), sex, birth: birthAt(childAge), relation: '3', householdNo, group },
        household,
      );
      if (childAge > 24 && r.chance(0.35)) {
        const gSex: 1 | 2 = r.chance(0.5) ? 1 : 2;
        add(
          {
            name: familyName + given(gSex),
            sex: gSex,
            birth: birthAt(Math.max(0, childAge - r.int(22, 30))),
            relation: '5',
            householdNo,
            group,
          },
          household,
        );
      }
    }
    if (headAge < 55 && r.chance(0.45)) {
      const pSex: 1 | 2 = r.chance(0.5) ? 1 : 2;
      add(
        {
          name: (pSex === 1 ? familyName : r.pick(SPOUSE_SURNAMES)) + given(pSex),
          sex: pSex,
          birth: birthAt(headAge + r.int(24, 32)),
          relation: '4',
          householdNo,
          group,
        },
        household,
      );
    }
  }
  await insertAll(db, t.villager, rows);

  const adults = people.filter((p) => ageOf(p.birth) >= 30 && ageOf(p.birth) <= 62);
  const heads = people.filter((p) => p.relation === '1');
  const pickAdult = () => r.pick(adults);

  // cadres: the secretary is also the committee's director (一肩挑), as most villages now have it
  const cadreSeats: [position: string, duty: string][] = [
    ['1', '全面负责党支部工作'],
    ['2', '全面负责村委会工作'],
    ['3', '分管产业发展、基础设施'],
    ['4', '分管社会保障、民政'],
    ['4', '分管综治维稳、安全生产'],
    ['5', '村务监督'],
    ['6', '村级财务、报账'],
    ['7', '妇女儿童、计生'],
    ['8', '网格化管理'],
  ];
  const cadrePeople: Person[] = [];
  // the village committees' terms started together in 2021 and run five years
  const termYear = year - ((((year - 2021) % 5) + 5) % 5);
  const termStart = `${termYear}-01-10`;
  const cadres = cadreSeats.map(([position, duty], i) => {
    const p = i === 1 ? cadrePeople[0] : pickAdult();
    if (i !== 1) cadrePeople.push(p);
    return {
      ...base,
      villagerId: p.id,
      position,
      termStart,
      termEnd: `${termYear + 5}-01-09`,
      inOffice: 1,
      duty,
      phone: phone(),
    };
  });
  await insertAll(db, t.villagerToCadre, cadres);

  const partyRows = rows
    .filter((v) => v.politicalStatus === '2' || v.politicalStatus === '3')
    .map((v) => ({
      ...base,
      villagerId: v.id,
      memberType: v.politicalStatus === '3' ? '2' : '1',
      branch: DEMO_VILLAGE.branch,
      // joined at 21 or later, and before today
      joinDate: ymd(
        addDays(today, -r.int(30, Math.max(31, (ageOf(new Date(`${v.birthDate}T00:00:00Z`)) - 21) * 365))),
      ),
      partyPost: null as string | null,
    }));
  // the secretary is a member whatever the draw said
  if (!partyRows.some((p) => p.villagerId === cadrePeople[0].id))
    partyRows.push({
      ...base,
      villagerId: cadrePeople[0].id,
      memberType: '1',
      branch: DEMO_VILLAGE.branch,
      joinDate: '2005-07-01',
      partyPost: '书记',
    });
  await insertAll(db, villagerToParty, partyRows);

  await insertAll(db, t.villagerToOrg, [
    ...cadrePeople.slice(0, 5).map((p, i) => ({
      ...base,
      villagerId: p.id,
      orgKind: '1',
      orgName: `${DEMO_VILLAGE.name}村民委员会`,
      post: ['主任', '副主任', '委员', '委员', '委员'][i],
      joinDate: termStart,
    })),
    ...Array.from({ length: 14 }, () => ({
      ...base,
      villagerId: pickAdult().id,
      orgKind: '3',
      orgName: `${DEMO_VILLAGE.name}油茶专业合作社`,
      post: '社员',
      joinDate: `${year - r.int(1, 6)}-03-01`,
    })),
    ...people
      .filter((p) => p.sex === 2 && ageOf(p.birth) >= 25 && ageOf(p.birth) <= 55)
      .slice(0, 8)
      .map((p) => ({
        ...base,
        villagerId: p.id,
        orgKind: '4',
        orgName: `${DEMO_VILLAGE.name}妇女联合会`,
        post: '执委',
        joinDate: `${year - 2}-03-08`,
      })),
  ]);

  await insertAll(
    db,
    t.villagerToGroup,
    ['1', '2', '3', '4', '5', '6'].flatMap((g, i) => {
      const inGroup = adults.filter((p) => p.group === g);
      const gridName = `第${'一二三四五六'[i]}网格`;
      return [
        {
          ...base,
          villagerId: (inGroup[0] ?? pickAdult()).id,
          gridName,
          gridRole: '1',
          gridArea: `${'一二三四五六'[i]}组全域`,
        },
        {
          ...base,
          villagerId: (inGroup[1] ?? pickAdult()).id,
          gridName,
          gridRole: '3',
          gridArea: `${'一二三四五六'[i]}组全域`,
        },
      ];
    }),
  );

  await insertAll(
    db,
    t.villageAffairsDuty,
    Array.from({ length: 45 }, (_, i) => {
      const p = cadrePeople[i % cadrePeople.length];
      return {
        ...base,
        dutyDate: ymd(addDays(today, i - 30)),
        shift: i % 7 === 5 || i % 7 === 6 ? '3' : '1',
        cadreId: p.id,
        phone: phone(),
        location: '村部值班室',
        content:
          i < 30
            ? r.pick([
                '接待群众来访 3 人,均已答复',
                '巡查防汛重点部位,无异常',
                '协助办理医保缴费',
                '处理邻里噪音纠纷一起',
                '无特殊情况',
              ])
            : null,
      };
    }),
  );

  const taskTitles = [
    '人居环境整治月度检查',
    '防返贫动态监测走访',
    '城乡居民医保缴费动员',
    '秸秆禁烧巡查',
    '农村危房排查',
    '森林防火宣传',
    '集体经济项目申报',
    '村务公开栏更新',
    '独居老人探访',
    '防溺水安全宣传',
  ];
  await insertAll(
    db,
    t.evaluationTask,
    taskTitles.map((title, i) => {
      const status = i < 5 ? '3' : i < 8 ? '2' : '1';
      const done = status === '3';
      const score = done ? String(r.int(82, 98)) : null;
      return {
        ...base,
        title,
        assigneeId: cadrePeople[i % cadrePeople.length].id,
        period: `${year}年第${Math.floor(today.getUTCMonth() / 3) + 1}季度`,
        deadline: ymd(addDays(today, (i - 4) * 6)),
        progress: done ? 100 : status === '2' ? r.int(30, 80) : 0,
        taskStatus: status,
        score,
        grade: gradeOfScore(score),
        content: `${title},按乡镇要求完成并报送台账。`,
      };
    }),
  );

  const rules: [category: string, name: string, points: number][] = [
    ['1', '赡养老人、孝敬父母', 10],
    ['2', '庭院整洁、垃圾分类', 5],
    ['2', '乱堆乱放、污水乱排', -5],
    ['3', '婚事新办、丧事简办', 10],
    ['3', '大操大办、铺张浪费', -10],
    ['4', '参与矛盾调解', 5],
    ['5', '参加志愿服务', 3],
    ['6', '发展特色产业', 8],
  ];
  const ruleIds = rules.map((_, i) => String(BigInt(VILLAGE_DEMO.scoreRuleId) + BigInt(i)));
  await insertAll(
    db,
    t.scoreRankRule,
    rules.map(([category, ruleName, points], i) => ({
      ...base,
      id: ruleIds[i],
      category,
      ruleName,
      points,
      enabled: 1,
      sort: i + 1,
      description: `${ruleName}:${points > 0 ? '加' : '扣'} ${Math.abs(points)} 分/次`,
    })),
  );
  await insertAll(
    db,
    t.scoreRank,
    Array.from({ length: 160 }, () => {
      const i = r.int(0, rules.length - 1);
      // awards far outnumber deductions
      const k = rules[i][2] < 0 && r.chance(0.6) ? 0 : i;
      return {
        ...base,
        villagerId: r.pick(heads).id,
        ruleId: ruleIds[k],
        points: rules[k][2],
        recordDate: ymd(addDays(today, -r.int(0, 420))),
        approver: cadrePeople[0].name,
      };
    }),
  );

  await insertAll(
    db,
    t.policyToPeople,
    rows
      .filter((v) => v.lowIncome === 1 || v.livingAlone === 1)
      .slice(0, 30)
      .map((v) => ({
        ...base,
        policyName: v.livingAlone === 1 ? '特困人员供养' : '农村最低生活保障',
        villagerId: v.id,
        benefit: v.livingAlone === 1 ? '基本生活补助' : '低保金',
        amount: v.livingAlone === 1 ? '680.00' : '420.00',
        grantDate: ymd(addDays(today, -r.int(0, 25))),
        grantStatus: '1',
      })),
  );

  const provinceLetters = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  await insertAll(
    db,
    t.vehicle,
    Array.from({ length: 30 }, (_, i) => {
      const kind = r.pick(['1', '1', '1', '2', '3', '4']);
      return {
        ...base,
        // plates are unique in the tenant: a number per vehicle, spaced wider than its random part
        plateNo: `湘A${provinceLetters[i % provinceLetters.length]}${String(1000 + i * 37 + r.int(0, 30))}`,
        vehicleType: kind,
        ownerId: r.pick(adults).id,
        brand:
          kind === '1'
            ? r.pick(['比亚迪 秦', '五菱 宏光', '大众 朗逸', '长安 CS75'])
            : kind === '2'
              ? '解放 J6'
              : kind === '3'
                ? '东风 农用三轮'
                : '雅马哈 125',
        color: r.pick(['白', '黑', '银', '红', '蓝']),
        usage: kind === '3' ? '3' : kind === '2' ? '2' : '1',
        registerDate: ymd(addDays(today, -r.int(100, 3000))),
      };
    }),
  );

  await insertAll(
    db,
    t.filingRecords,
    Array.from({ length: 16 }, (_, i) => {
      const kind = r.pick(['1', '1', '2', '2', '3', '4']);
      return {
        ...base,
        applicantId: r.pick(heads).id,
        kind,
        eventDate: ymd(addDays(today, r.int(-200, 20))),
        place: kind === '2' ? '自家' : '村文化礼堂',
        tables: r.int(6, 20),
        guests: r.int(60, 200),
        filingStatus: i < 2 ? '1' : '2',
        content: '不超过 20 桌,每桌不超过 600 元,不燃放大型烟花。',
      };
    }),
  );

  await insertAll(db, t.villageRule, [
    {
      ...base,
      title: `${DEMO_VILLAGE.name}村规民约`,
      effectiveDate: `${year - 1}-01-01`,
      published: 1,
      content:
        '第一条 爱党爱国,遵纪守法。\n第二条 孝老爱亲,邻里和睦。\n第三条 移风易俗,红白事简办。\n第四条 爱护环境,垃圾分类,门前三包。\n第五条 森林防火,不在野外用火。\n第六条 本规约经村民代表会议通过,自公布之日起施行。',
    },
    {
      ...base,
      title: '红白理事会章程',
      effectiveDate: `${year - 1}-03-01`,
      published: 1,
      content: '红白理事会由村民代表推选产生,负责红白事的备案、指导与监督。',
    },
    {
      ...base,
      title: '人居环境卫生公约',
      effectiveDate: `${year}-01-01`,
      published: 1,
      content: '每户每月参加一次环境卫生评比,结果计入积分。',
    },
  ]);

  await insertAll(db, t.villageReview, [
    {
      ...base,
      subject: `${year - 1}年度民主评议党员`,
      reviewKind: '1',
      period: `${year - 1}年度`,
      reviewDate: `${year}-01-15`,
      participants: 86,
      result: '1',
      content: '参评党员均评为合格及以上。',
    },
    {
      ...base,
      subject: `${year - 1}年度村干部述职评议`,
      reviewKind: '2',
      period: `${year - 1}年度`,
      reviewDate: `${year}-01-20`,
      participants: 64,
      result: '1',
      content: '满意率 95%。',
    },
    {
      ...base,
      subject: '村道拓宽工程方案',
      reviewKind: '3',
      period: `${year}年`,
      reviewDate: ymd(addDays(today, -40)),
      participants: 52,
      result: '2',
      content: '同意方案,建议增设会车点。',
    },
  ]);

  const groupOf = (g: string) => heads.filter((h) => h.group === g);
  await insertAll(
    db,
    t.guaranteeGroup,
    ['1', '2', '3', '4', '5'].map((g, i) => {
      const hs = groupOf(g);
      return {
        ...base,
        groupName: `${'一二三四五'[i]}组联保小组`,
        leaderId: hs[0].id,
        memberIds: hs
          .slice(1, 6)
          .map((x) => x.id)
          .join(','),
        area: `${'一二三四五'[i]}组`,
        phone: phone(),
      };
    }),
  );
  await insertAll(
    db,
    t.duplexCharge,
    Array.from({ length: 8 }, (_, i) => {
      const hs = heads.slice(i * 10, i * 10 + 10);
      return {
        ...base,
        leaderId: hs[0].id,
        memberIds: hs
          .slice(1)
          .map((x) => x.id)
          .join(','),
        gridName: `第${'一二三四五六'[i % 6]}网格`,
        phone: phone(),
      };
    }),
  );
  await insertAll(
    db,
    t.securityCharge,
    ['1', '2', '3', '4', '5', '6'].map((g, i) => {
      const hs = groupOf(g);
      return {
        ...base,
        leaderId: hs[hs.length - 1].id,
        memberIds: hs
          .slice(0, 8)
          .map((x) => x.id)
          .join(','),
        area: `${'一二三四五六'[i]}组及周边道路`,
        patrolDuty: '夜间巡逻、重点时段值守、发现隐患及时报告',
        phone: phone(),
      };
    }),
  );

  const sizes = new Map<string, number>();
  for (const p of people) sizes.set(p.householdNo, (sizes.get(p.householdNo) ?? 0) + 1);
  await insertAll(
    db,
    t.villagerIncome,
    [year - 2, year - 1].flatMap((y) =>
      heads.map((h) => {
        const wage = r.int(0, 60) * 1000;
        const business = r.int(0, 30) * 1000;
        const property = r.int(0, 3) * 500;
        const transfer = r.int(1, 8) * 600;
        const total = wage + business + property + transfer;
        const size = sizes.get(h.householdNo) ?? 1;
        return {
          ...base,
          villagerId: h.id,
          year: y,
          familySize: size,
          wageIncome: wage.toFixed(2),
          businessIncome: business.toFixed(2),
          propertyIncome: property.toFixed(2),
          transferIncome: transfer.toFixed(2),
          totalIncome: total.toFixed(2),
          perCapita: (total / size).toFixed(2),
        };
      }),
    ),
  );

  const visitTexts = [
    '了解家庭收入与就业情况,宣传务工补贴政策',
    '查看房屋安全情况,提醒雨季防范',
    '走访独居老人,检查用电用气安全',
    '宣传城乡居民医保缴费政策',
    '调解宅基地边界纠纷',
    '了解产业发展需求,介绍合作社技术培训',
  ];
  await insertAll(
    db,
    t.visitingRecords,
    Array.from({ length: 48 }, (_, i) => {
      const days = i < 8 ? r.int(0, Math.max(0, today.getUTCDate() - 1)) : r.int(0, 120);
      const status = r.pick(['1', '1', '2', '3']);
      return {
        ...base,
        visitorId: r.pick(cadrePeople).id,
        villagerId: r.pick(heads).id,
        visitDate: ymd(addDays(today, -days)),
        visitKind: r.pick(['1', '1', '2', '3', '4']),
        content: r.pick(visitTexts),
        followUp: status === '1' ? null : '协调镇相关部门,一周内回复',
        followStatus: status,
      };
    }),
  );
  await insertAll(
    db,
    t.visitingReception,
    Array.from({ length: 14 }, (_, i) => {
      const visitor = r.pick(adults);
      return {
        ...base,
        visitorName: visitor.name,
        visitorPhone: phone(),
        receptionDate: ymd(
          addDays(today, -(i < 3 ? r.int(0, Math.max(0, today.getUTCDate() - 1)) : r.int(0, 150))),
        ),
        matterKind: r.pick(['1', '2', '3', '4', '5', '6']),
        matter: r.pick([
          '反映灌溉渠道堵塞',
          '咨询低保申请条件',
          '反映邻居占用通道',
          '咨询养老保险缴费档次',
          '反映垃圾清运不及时',
        ]),
        handlerId: r.pick(cadrePeople).id,
        result: i % 4 === 0 ? null : '已现场答复并登记',
        resultStatus: i % 4 === 0 ? '1' : '2',
      };
    }),
  );

  await insertAll(
    db,
    t.villageAffairsOverview,
    [
      ['村域面积', '12.6', '平方公里'],
      ['耕地面积', '3260', '亩'],
      ['林地面积', '9800', '亩'],
      ['村集体经济收入', '48.5', '万元'],
      ['主导产业', '油茶、水稻', ''],
      ['村民小组', '6', '个'],
    ].map(([itemName, itemValue, unit], i) => ({ ...base, itemName, itemValue, unit, sort: i + 1 })),
  );
}
