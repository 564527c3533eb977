/**
 * A publish's state as a tag that follows WeChat: while the row is not final (已提交, 发布中) it asks
 * `freePublish/status` (which asks WeChat once) after 1 s, then 2, 4 … up to 15 s, until an outcome; then it
 * shows the outcome, and the failed articles (`fail_idx`, named) for a failure, and tells `onFinal`.
 */
import { WX_PUBLISH_STATE, wxPublishFinal } from '@smart/contracts/wechat-drafts';
import { Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Row } from '../../../platform/crud/types';
import { getData } from '../../../platform/http/client';

const STATUS = '/api/dfem-hope-wx/freePublish/status';

const COLOR: Record<string, string> = {
  [WX_PUBLISH_STATE.submitted]: 'blue',
  [WX_PUBLISH_STATE.publishing]: 'processing',
  [WX_PUBLISH_STATE.success]: 'success',
  [WX_PUBLISH_STATE.userDeleted]: 'default',
  [WX_PUBLISH_STATE.banned]: 'error',
};

export function PublishState({ row, onFinal }: { row: Row; onFinal?: (row: Row) => void }) {
  const { t } = useTranslation();
  const [now, setNow] = useState<Row>(row);
  useEffect(() => setNow(row), [row]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows one row by its id and state
  useEffect(() => {
    if (wxPublishFinal(now.state)) return;
    let delay = 1000;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const ask = async () => {
      try {
        const fresh = await getData<Row>(STATUS, { id: String(now.id) }, { silent: true });
        if (stopped) return;
        setNow(fresh);
        if (wxPublishFinal(fresh.state)) {
          onFinal?.(fresh);
          return;
        }
      } catch {
        // WeChat unreachable for a moment: ask again later
      }
      delay = Math.min(delay * 2, 15_000);
      if (!stopped) timer = setTimeout(ask, delay);
    };
    timer = setTimeout(ask, delay);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [now.id, now.state]);
  const state = String(now.state ?? '');
  const final = wxPublishFinal(state);
  return (
    <Space direction="vertical" size={0}>
      <Tag
        color={COLOR[state] ?? (final ? 'error' : 'processing')}
        data-testid="wx-publish-state"
        aria-live="polite"
      >
        {String(now.stateName ?? state)}
      </Tag>
      {now.failed ? (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {t('wxpub.failedArticles', { failed: String(now.failed) })}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
