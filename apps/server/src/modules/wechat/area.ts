import { WECHAT_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { wechatHooks } from './hooks';
import { seedWechat } from './seed';

/** 公众号与小程序 on the server: banners (set to top, the family's route names) and QR codes with their picture. */
export const wechatArea = serverArea(WECHAT_AREA, {
  hooks: () => wechatHooks(),
  seed: [['wechat-v1', seedWechat]],
});
