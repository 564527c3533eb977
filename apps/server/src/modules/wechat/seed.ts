import { randomUUID } from 'node:crypto';
import { CAROUSEL_LINK, WECHAT_DEMO } from '@smart/contracts';
import type { SeedEnv } from '../../platform/area';
import type { Db } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { UPLOAD_KINDS } from '../resource/uploads';
import { bannerPng } from './banner-image';
import { carousel, qrcode } from './tables';

/**
 * Step `wechat-v1`: the demo village's (tenant 000000) three banners — their pictures drawn by `bannerPng`
 * and stored as uploaded images are — one of them on top and one whose dates have passed (shown as not
 * active), and a QR code kept for reuse. Dated from today.
 */
export async function seedWechat(db: Db, { storage }: SeedEnv) {
  const tenantId = '000000';
  const base = { tenantId, createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  const today = formatDateTime(new Date()).slice(0, 10);
  const day = (offset: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  const picture = async (
    top: [number, number, number],
    horizon: [number, number, number],
    hills: [number, number, number],
  ) => {
    const name = `${randomUUID()}.png`;
    await storage.put(`${UPLOAD_KINDS.image.folder}/${name}`, bannerPng(top, horizon, hills));
    return `${UPLOAD_KINDS.image.served}${name}`;
  };
  const [spring, tea, mall] = WECHAT_DEMO.carouselIds;
  await insertAll(db, carousel, [
    {
      ...base,
      id: spring,
      image: await picture([86, 150, 230], [190, 225, 250], [70, 150, 70]),
      title: '春季乡村旅游节',
      position: '1',
      linkKind: CAROUSEL_LINK.tourism,
      linkTarget: '/pages/tourism/detail?id=1',
      sortOrder: 1,
      isTop: 1,
      activePeriod: `${day(-30)},${day(60)}`,
      enabled: 1,
    },
    {
      ...base,
      id: tea,
      image: await picture([240, 150, 90], [255, 220, 170], [60, 120, 60]),
      title: '油茶基地采摘体验',
      position: '2',
      linkKind: CAROUSEL_LINK.web,
      linkTarget: 'https://www.example.com/tea',
      sortOrder: 2,
      isTop: 0,
      activePeriod: `${day(-10)},${day(120)}`,
      enabled: 1,
    },
    {
      ...base,
      id: mall,
      image: await picture([120, 90, 200], [220, 200, 245], [90, 140, 80]),
      title: '积分兑换好礼(已结束)',
      position: '3',
      linkKind: CAROUSEL_LINK.article,
      linkTarget: '12',
      sortOrder: 3,
      isTop: 0,
      activePeriod: `${day(-90)},${day(-1)}`,
      enabled: 1,
    },
  ]);
  await insertAll(db, qrcode, [
    {
      ...base,
      id: WECHAT_DEMO.qrcodeId,
      purpose: '3',
      content: 'https://www.example.com/village/tourism',
      remark: '村游宣传海报用',
    },
  ]);
}
