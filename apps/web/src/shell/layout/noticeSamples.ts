/**
 * Sample entries of the notice popover (the spec shows sample data only): i18n keys. They carry no times,
 * and the popover marks them 示例 / Sample, so nobody takes them for real notices (通知公告 holds those).
 */
import type { TextKey } from '../../platform/i18n';

export type NoticeKind = 'mail' | 'message' | 'notice';

export const NOTICE_SAMPLES: Record<NoticeKind, { key: TextKey }[]> = {
  mail: [{ key: 'notice.sample.mail1' }, { key: 'notice.sample.mail2' }, { key: 'notice.sample.mail3' }],
  message: [
    { key: 'notice.sample.message1' },
    { key: 'notice.sample.message2' },
    { key: 'notice.sample.message3' },
    { key: 'notice.sample.message4' },
  ],
  notice: [{ key: 'notice.sample.notice1' }, { key: 'notice.sample.notice2' }],
};

export const NOTICE_SAMPLE_COUNT = Object.values(NOTICE_SAMPLES).reduce((n, list) => n + list.length, 0);
