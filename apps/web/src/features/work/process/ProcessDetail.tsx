/** The detail page's frame: the request, its record, its timeline and diagram. */
import '../i18n';
import { Card, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { HistoryTimeline, heading, InlineDiagram, subheading } from './RequestRecord';

/** A detail page, read-only: the business record (`children`), the diagram with its nodes marked, the timeline. */
export function ProcessDetail({
  title,
  processInstanceId,
  children,
}: {
  title: string;
  processInstanceId: string | undefined;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" size={16} style={{ width: '100%', maxWidth: 1100 }}>
      <Card variant="borderless" title={heading(title)}>
        {children}
      </Card>
      <Card variant="borderless" title={subheading(t('flow.diagram'))}>
        <InlineDiagram processInstanceId={processInstanceId} />
      </Card>
      <Card variant="borderless" title={subheading(t('work.history.title'))}>
        <HistoryTimeline processInstanceId={processInstanceId} />
      </Card>
    </Space>
  );
}
