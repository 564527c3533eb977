import { and, eq } from 'drizzle-orm';
import type { ResourceHooks } from '../../platform/crud/binding';
import type { Db } from '../../platform/db';
import { FieldInputError } from '../../platform/http/errors';
import { notDeleted } from '../../platform/sql';
import { probationDueEndpoint, probationNoticeEndpoint } from './endpoints';
import { villagerToParty } from './tables';

/** What differs from the engine's pattern in party building. */

/**
 * Members: the probation endpoints. A probationary member's probation end (required, not before the joined
 * date) is the definition's rule (`requiredWhen`, `notBefore`).
 */
const memberHooks: ResourceHooks = {
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
