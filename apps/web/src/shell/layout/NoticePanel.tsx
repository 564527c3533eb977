import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { flattenMenu } from '../menu';
import { NOTICE_SAMPLES, type NoticeKind } from './noticeSamples';
import { useNavMenu } from './useNavMenu';

/** spec §9: the list scrolls at 300 px */
export const NOTICE_LIST_HEIGHT = 300;
/** the real notices' screen (通知公告) */
export const NOTICES_PAGE = '/desk/notice/index';

const KINDS: NoticeKind[] = ['mail', 'message', 'notice'];

function SampleTag() {
  const { t } = useTranslation();
  return (
    <span
      style={{
        fontSize: 12,
        lineHeight: '18px',
        padding: '0 6px',
        borderRadius: 4,
        border: '1px solid #ffd591',
        background: '#fff7e6',
        color: '#873800',
        whiteSpace: 'nowrap',
      }}
    >
      {t('notice.sampleTag')}
    </span>
  );
}

/** The popover's content: sample entries, each marked as such, and a link to the real notices. */
export default function NoticePanel({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { items } = useNavMenu();
  const noticesOpen = flattenMenu(items).some((e) => e.path === NOTICES_PAGE);
  return (
    <>
      <p
        data-testid="notice-sample-note"
        style={{ display: 'flex', gap: 8, alignItems: 'center', margin: '8px 0 0', fontSize: 12 }}
      >
        <SampleTag />
        <span style={{ color: 'rgba(0,0,0,.65)' }}>{t('notice.sampleNote')}</span>
      </p>
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
                <li
                  key={item.key}
                  style={{
                    display: 'flex',
                    gap: 8,
                    alignItems: 'flex-start',
                    padding: '10px 4px',
                    borderBottom: '1px solid rgba(5,5,5,.06)',
                  }}
                >
                  <SampleTag />
                  <span>{t(item.key)}</span>
                </li>
              ))}
            </ul>
          ),
        }))}
      />
      {noticesOpen && (
        <div style={{ textAlign: 'center', paddingTop: 8, borderTop: '1px solid rgba(5,5,5,.06)' }}>
          <Link to={NOTICES_PAGE} onClick={onNavigate}>
            {t('notice.openNotices')}
          </Link>
        </div>
      )}
    </>
  );
}
