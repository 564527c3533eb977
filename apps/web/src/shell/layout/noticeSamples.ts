/** Sample entries of the notice popover (the spec shows sample data only): i18n keys and times. */
import type { TextKey } from '../../platform/i18n';

export type NoticeKind = 'mail' | 'message' | 'notice';

export const NOTICE_SAMPLES: Record<NoticeKind, { key: TextKey; time: string }[]> = {
  mail: [
    { key: 'notice.sample.mail1', time: '2024-05-08 14:33:22' },
    { key: 'notice.sample.mail2', time: '2024-05-08 10:05:10' },
    { key: 'notice.sample.mail3', time: '2024-05-07 16:20:00' },
  ],
  message: [
    { key: 'notice.sample.message1', time: '2024-05-08 09:12:40' },
    { key: 'notice.sample.message2', time: '2024-05-07 18:45:03' },
    { key: 'notice.sample.message3', time: '2024-05-06 11:30:19' },
    { key: 'notice.sample.message4', time: '2024-05-06 08:02:51' },
  ],
  notice: [
    { key: 'notice.sample.notice1', time: '2024-05-08 08:00:00' },
    { key: 'notice.sample.notice2', time: '2024-05-05 20:00:00' },
  ],
};

export const NOTICE_SAMPLE_COUNT = Object.values(NOTICE_SAMPLES).reduce((n, list) => n + list.length, 0);
