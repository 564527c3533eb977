/** The notice popover of the top bar (spec §2): mail, messages and notices; sample data only, marked 示例. */
import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTICE_SAMPLE_COUNT } from './noticeSamples';

const NoticePanel = lazy(() => import('./NoticePanel'));

/** spec §9: popover width 350 */
export const NOTICE_WIDTH = 350;

export function NoticeButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      placement="bottomRight"
      styles={{ root: { width: NOTICE_WIDTH }, container: { padding: '4px 12px 12px' } }}
      // the popup renders its content on first opening: the panel's chunk loads then
      content={
        <Suspense fallback={<div style={{ height: 340 }} aria-busy="true" />}>
          <NoticePanel onNavigate={() => setOpen(false)} />
        </Suspense>
      }
    >
      <span style={{ display: 'inline-flex' }}>
        <Badge count={NOTICE_SAMPLE_COUNT} size="small" offset={[-4, 4]}>
          <Button
            type="text"
            icon={<BellOutlined />}
            aria-label={t('notice.button', { count: NOTICE_SAMPLE_COUNT })}
            aria-expanded={open}
          />
        </Badge>
      </span>
    </Popover>
  );
}
