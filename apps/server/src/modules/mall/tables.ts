import {
  exchangeListResource,
  pointsAccountResource,
  pointsDeedResource,
  pointsGoodsResource,
  pointsRecordResource,
  pointsRuleResource,
} from '@smart/contracts';
import { sql } from 'drizzle-orm';
import { tableOf } from '../../platform/crud/model';

/**
 * The points mall's tables (dfem-hope-manage), derived from their definitions in
 * packages/contracts/src/resource/mall.ts (platform/crud/model.ts).
 */

export const pointsRule = tableOf(pointsRuleResource);
export const pointsGoods = tableOf(pointsGoodsResource);
export const pointsAccount = tableOf(pointsAccountResource);
export const pointsRecord = tableOf(pointsRecordResource);
export const pointsDeed = tableOf(pointsDeedResource);
export const exchangeList = tableOf(exchangeListResource);

/**
 * A ledger row that is an open lot, as the `lots` index's condition says it (a literal, not a bound
 * parameter: a prepared statement's `remaining > $1` cannot use a partial index).
 */
export const openLot = sql`${pointsRecord.remaining} > 0`;
