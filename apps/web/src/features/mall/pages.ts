/**
 * 积分超市's screens: exchanges (核销, the QR code, cancelling), deed review (通过 / 驳回) and the rules (their
 * switch) are pages of their own over the generic list; goods, the ledger (a cadre's grant or deduction, an
 * Excel batch) and the ranking are the generic list page; the overview is the area's declaration.
 */
import { areaPages } from '../../platform/pages';

export const mallPages = areaPages('mall', () => import('@smart/contracts/mall').then((m) => m.MALL_AREA), {
  own: {
    exchangeList: () => import('./ExchangePage'),
    pointsDeed: () => import('./DeedPage'),
    pointsRule: () => import('./RulePage'),
  },
});
