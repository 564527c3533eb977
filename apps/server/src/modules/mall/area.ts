import { MALL_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { expiryJob } from './expiry';
import { mallHooks } from './hooks';
import { mallOverview } from './overview';
import { migrateVillageScores, seedDemoExchanges, seedMall } from './seed';

/** 积分超市 on the server: the ledger, exchanges and 核销, deed review, rankings, expiry, the overview. */
export const mallArea = serverArea(MALL_AREA, {
  hooks: () => mallHooks(),
  overview: { mall: mallOverview },
  routes: [{ prefix: '/api/dfem-hope-manage', plugin: expiryJob }],
  seed: [
    ['mall-v1', seedMall],
    ['points-ledger-v1', migrateVillageScores],
    ['mall-exchanges-v1', seedDemoExchanges],
  ],
});
