/**
 * 资源管理's screens: 对象存储 is the generic list with its enabled tag and two row actions, 启用 and 测试
 * (the four steps of a probe object, with the provider's own codes); 短信配置 the same with 启用 and 发送测试;
 * 短信日志 the generic read-only list; 附件管理 the generic list with an upload button, a preview (an
 * image's thumbnail in a dialog, a PDF in a new tab) and a download per row.
 */
import { areaPages } from '../../platform/pages';

export const resourcePages = areaPages(
  'resource',
  () => import('@smart/contracts/storage').then((m) => m.RESOURCE_AREA),
  {
    own: {
      oss: () => import('./OssPage'),
      sms: () => import('./SmsPage'),
      attach: () => import('./AttachPage'),
    },
  },
);
