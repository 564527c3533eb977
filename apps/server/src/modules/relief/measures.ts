import { RELIEF_STAGE } from '@smart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { qualified } from '../../platform/sql';
import { preventionPoverty as h, supportingMeasures } from './tables';

/** a measure's 落实状态 that counts as under way */
const IN_PROGRESS = '1';

/**
 * A monitored household without a measure under way: the one definition the overview counts (未落实措施) and
 * the `without-measure` list shows, so the two always agree.
 */
export const withoutMeasure = and(
  eq(h.stage, RELIEF_STAGE.monitored),
  sql`not exists (select 1 from ${supportingMeasures} m where m.household_id = ${qualified(h.id)}
    and m.tenant_id = ${qualified(h.tenantId)} and m.is_deleted = 0 and m.status = ${IN_PROGRESS})`,
)!;
