/**
 * 资源管理's screens: 对象存储 is the generic list with its enabled tag and two row actions, 启用 and 测试
 * (the four steps of a probe object, with the provider's own codes).
 */
import { areaPages } from '../../platform/pages';

export const resourcePages = areaPages(
  'resource',
  () => import('@smart/contracts/storage').then((m) => m.RESOURCE_AREA),
  { own: { oss: () => import('./OssPage') } },
);
