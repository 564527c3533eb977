import {
  exchangeListResource,
  pointsAccountResource,
  pointsDeedResource,
  pointsGoodsResource,
  pointsRecordResource,
  pointsRuleResource,
} from '@smart/contracts';
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
