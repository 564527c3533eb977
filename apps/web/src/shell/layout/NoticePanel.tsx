import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { NOTICE_SAMPLES, type NoticeKind } from './noticeSamples';

/** spec §9: the list scrolls at 300 px */
export const NOTICE_LIST_HEIGHT = 300;

const KINDS: NoticeKind[] = ['mail', 'message', 'notice'];

export default function NoticePanel() {
  const { t } = useTranslation();
  return (
    <Tabs
      centered
      items={KINDS.map((kind) => ({
        key: kind,
        label: `${t(`notice.${kind}`)} (${NOTICE_SAMPLES[kind].length})`,
        children: (
          <ul
            aria-label={t(`notice.${kind}`)}
            style={{
              height: NOTICE_LIST_HEIGHT,
              overflowY: 'auto',
              margin: 0,
              padding: 0,
              listStyle: 'none',
            }}
          >
            {NOTICE_SAMPLES[kind].map((item) => (
              <li key={item.key} style={{ padding: '10px 4px', borderBottom: '1px solid rgba(5,5,5,.06)' }}>
                <div>{t(item.key)}</div>
                <div style={{ fontSize: 12, color: 'rgba(0,0,0,.55)', marginTop: 4 }}>{item.time}</div>
              </li>
            ))}
          </ul>
        ),
      }))}
    />
  );
}
