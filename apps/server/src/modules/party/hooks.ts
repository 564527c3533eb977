import { and, eq } from 'drizzle-orm';
import type { ResourceHooks } from '../../platform/crud/binding';
import type { Db } from '../../platform/db';
import { FieldInputError } from '../../platform/http/errors';
import { notDeleted } from '../../platform/sql';
import { probationDueEndpoint, probationNoticeEndpoint } from './endpoints';
import { villagerToParty } from './tables';

/** What differs from the engine's pattern in party building. */

const PROBATIONARY = '2';

/** A probationary member has the day their probation ends (the definition keeps it after the joined date). */
const memberHooks: ResourceHooks = {
  beforeWrite(_ctx, record, _mode, _id, original) {
    const type = String(record.memberType ?? original?.memberType ?? '');
    const end = 'probationEnd' in record ? record.probationEnd : original?.probationEnd;
    if (type === PROBATIONARY && (end === null || end === undefined || end === ''))
      throw new FieldInputError('probationEnd', {
        zh: '预备党员须填写预备期满日期',
        en: 'A probationary member needs the date their probation ends',
      });
  },
  endpoints: [probationDueEndpoint, probationNoticeEndpoint],
};

/** An activity's attendance is the number of members it lists as present. */
const activityHooks: ResourceHooks = {
  beforeWrite(_ctx, record, mode) {
    if (!('attendees' in record) && mode === 'update') return;
    const ids = String(record.attendees ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    record.attendance = new Set(ids).size;
  },
};

/** A pairing's member is a party member of the tenant (a villager the engine found within the caller's reach). */
function pairingHooks(db: Db): ResourceHooks {
  return {
    async beforeWrite(ctx, record) {
      if (!record.memberId) return;
      const [row] = await db
        .select({ id: villagerToParty.id })
        .from(villagerToParty)
        .where(
          and(
            eq(villagerToParty.villagerId, String(record.memberId)),
            eq(villagerToParty.tenantId, ctx.tenantId),
            notDeleted(villagerToParty.isDeleted),
          ),
        )
        .limit(1);
      if (!row)
        throw new FieldInputError('memberId', {
          zh: '所选村民不是党员',
          en: 'The villager picked is not a party member',
        });
    },
  };
}

/** Every party resource's table and hooks, for modules/resources.ts. */
export function partyHooks(db: Db): Record<string, ResourceHooks> {
  return { villagerToParty: memberHooks, partyPairing: pairingHooks(db), partyActivity: activityHooks };
}
