import { afterEach, describe, expect, it, vi } from 'vitest';
import { AGRI_OWNER_KIND, cooperationResource, plotResource, seedlingResource } from './agriculture';
import { assistanceProjectResource, careVideoResource } from './assistance';
import { villagerToPartyResource } from './party';
import { RESOURCES } from './registry';
import { deploymentDay } from './today';
import type { ResourceDef } from './types';
import { checkField, checkRecord, checkRelated, parseRecord } from './validate';

/**
 * The rules between fields and the "not after today" rule, declared on the definitions and run by the same
 * functions on both ends (the server's parseRecord / checkRecord, the form's rule for each field).
 */

const field = (def: ResourceDef, name: string) => def.fields.find((f) => f.name === name)!;

describe('a plot held by a household names the household (经营主体 = 农户 → 承包农户)', () => {
  const owner = field(plotResource, 'ownerVillagerId');
  const coop = field(plotResource, 'cooperationId');

  it('is the rule the form runs: the household is required only while 经营主体 is 农户', () => {
    const household = { ownerKind: AGRI_OWNER_KIND.household, ownerVillagerId: '' };
    expect(checkRelated(owner, plotResource.fields, household)?.zh).toBe('请选择承包农户');
    expect(checkRelated(owner, plotResource.fields, { ...household, ownerVillagerId: '1' })).toBeNull();
    expect(
      checkRelated(owner, plotResource.fields, { ...household, ownerKind: AGRI_OWNER_KIND.collective }),
    ).toBeNull();
    const cooperative = { ownerKind: AGRI_OWNER_KIND.cooperative, cooperationId: '' };
    expect(checkRelated(coop, plotResource.fields, cooperative)?.zh).toBe('请选择合作社/农场');
  });

  it('is the rule the server runs on a submit body, naming the field', () => {
    const body = {
      name: '东坡一号',
      polygon: '[[112.9,28.2],[112.91,28.2],[112.91,28.21]]',
      ownerKind: AGRI_OWNER_KIND.household,
    };
    const parsed = parseRecord(plotResource, body, 'create');
    expect(parsed.error).toEqual({
      field: 'ownerVillagerId',
      message: { zh: '请选择承包农户', en: 'please select household' },
    });
    expect(
      parseRecord(plotResource, { ...body, ownerKind: AGRI_OWNER_KIND.collective }, 'create').error,
    ).toBeUndefined();
    // an update that sends one side only is judged later, against the stored row (the engine)
    expect(
      parseRecord(plotResource, { ownerKind: AGRI_OWNER_KIND.household }, 'update').error,
    ).toBeUndefined();
  });
});

describe('the other rules moved from the hooks to the definitions', () => {
  it('a probationary member has the day their probation ends', () => {
    const rec = { memberType: '2', probationEnd: null, joinDate: '2020-01-01' };
    expect(checkRecord(villagerToPartyResource, rec)).toEqual({
      field: 'probationEnd',
      message: {
        zh: '预备党员须填写预备期满日期',
        en: 'A probationary member needs the date their probation ends',
      },
    });
    expect(checkRecord(villagerToPartyResource, { ...rec, memberType: '1' })).toBeNull();
  });

  it('certifications say their year', () => {
    const rec = { certifications: '1', certifiedYear: null };
    expect(checkRecord(cooperationResource, rec)?.field).toBe('certifiedYear');
    expect(checkRecord(cooperationResource, { ...rec, certifications: null })).toBeNull();
  });

  it('never more seedlings left than received, and never more spent than the budget', () => {
    expect(checkRecord(seedlingResource, { quantityIn: 5, quantityLeft: 6 })?.message.zh).toBe(
      '结存数量不能大于入库数量',
    );
    expect(checkRecord(seedlingResource, { quantityIn: 5, quantityLeft: 5 })).toBeNull();
    expect(checkRecord(assistanceProjectResource, { budget: '100.00', spend: '100.01' })?.message.zh).toBe(
      '已支出不能超过预算资金',
    );
  });

  it('a care video plays a file or an address', () => {
    expect(checkRecord(careVideoResource, { videoFile: null, videoUrl: null })?.message.zh).toBe(
      '请上传视频文件或填写视频地址',
    );
    expect(
      checkRecord(careVideoResource, { videoFile: null, videoUrl: 'https://v.example.com/1.mp4' }),
    ).toBeNull();
  });
});

describe('not after today', () => {
  afterEach(() => vi.useRealTimers());

  it('refuses a day to come, counted in the deployment’s day (Asia/Shanghai), not UTC', () => {
    // 2026-03-01 20:00 UTC is already 2026-03-02 04:00 in Shanghai
    vi.useFakeTimers({ now: Date.parse('2026-03-01T20:00:00Z') });
    expect(deploymentDay(Date.now(), 'Asia/Shanghai')).toBe('2026-03-02');
    const joined = { ...field(villagerToPartyResource, 'joinDate') };
    const today = deploymentDay();
    expect(checkField(joined, today)).toBeNull();
    const tomorrow = deploymentDay(Date.now() + 86_400_000);
    expect(checkField(joined, tomorrow)).toEqual({
      zh: '入党日期不能晚于今天',
      en: 'Joined on cannot be after today',
    });
  });

  it('is declared on every day that has already happened, and on no plan or due day', () => {
    const declared = new Set(
      RESOURCES.flatMap((r) => r.fields.filter((f) => f.notAfterToday).map((f) => `${r.key}.${f.name}`)),
    );
    for (const key of [
      'user.birthday',
      'villager.birthDate',
      'villagerToParty.joinDate',
      'vehicle.registerDate',
      'partyOrganization.foundedDate',
      'securityIncident.occurredAt',
      'plantRecord.workDate',
      'newEnergyPower.installDate',
    ])
      expect(declared.has(key), key).toBe(true);
    for (const key of [
      'planDetail.plannedDate',
      'evaluationTask.deadline',
      'villagerToParty.probationEnd',
      'tenant.expireTime',
      'powerTariff.effectiveFrom',
      'villageAffairsDuty.dutyDate',
    ])
      expect(declared.has(key), key).toBe(false);
    // by what the label says: born, joined, registered, founded, built, installed … never planned or due
    for (const r of RESOURCES)
      for (const f of r.fields) {
        if (f.readOnly || (f.type !== 'date' && f.type !== 'datetime')) continue;
        if (
          /^(?:Birth|Joined|Registered|Founded|Established|Built|Installed|Occurred|Raised|Taken)/.test(
            f.label.en,
          )
        )
          expect(f.notAfterToday, `${r.key}.${f.name}`).toBe(true);
        if (/Planned|Deadline|Expires|ends on|Effective|In force|Until|Term end/i.test(f.label.en))
          expect(f.notAfterToday, `${r.key}.${f.name}`).toBeFalsy();
      }
  });
});
