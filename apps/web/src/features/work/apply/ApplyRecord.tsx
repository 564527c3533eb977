/** The application as apply/detail answers it: who, when, where it stands, its title and content. */
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Empty, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { type ApplyDetail, fetchApply } from './apply';

export function ApplyInfo({ apply }: { apply: ApplyDetail }) {
  const { t } = useTranslation();
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, sm: 1, md: 2 }}
      items={[
        { key: 'process', label: t('work.process'), children: apply.processDefinitionName },
        { key: 'category', label: t('work.apply.category'), children: apply.categoryName || '—' },
        { key: 'applyUser', label: t('work.applicant'), children: apply.applyUserName || '—' },
        { key: 'applyTime', label: t('work.applyTime'), children: apply.applyTime },
        { key: 'taskUser', label: t('work.approver'), children: apply.taskUserName || '—' },
        {
          key: 'state',
          label: t('work.status.title'),
          children:
            apply.processIsFinished === 'finished' ? (
              <Tag color="success">{t('work.status.finished')}</Tag>
            ) : (
              <Tag color="processing">{t('work.status.running')}</Tag>
            ),
        },
        { key: 'title', label: t('work.apply.title'), children: apply.title, span: 'filled' },
        {
          key: 'content',
          label: t('work.apply.content'),
          children: <div style={{ whiteSpace: 'pre-wrap' }}>{apply.content || '—'}</div>,
          span: 'filled',
        },
      ]}
    />
  );
}

export function ApplyRecord({ processInstanceId }: { processInstanceId: string | undefined }) {
  const apply = useQuery({
    queryKey: ['flow-apply', processInstanceId],
    queryFn: () => fetchApply(processInstanceId!),
    enabled: !!processInstanceId,
    refetchOnMount: 'always',
  });
  if (apply.isLoading) return <Spin />;
  if (!apply.data) return <Empty />;
  return <ApplyInfo apply={apply.data} />;
}
