/** The application as apply/detail answers it: who, when, where it stands, its title and content. */
import { useQuery } from '@tanstack/react-query';
import { Empty, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { RequestFacts } from '../process/RequestRecord';
import { type ApplyDetail, fetchApply } from './apply';

export function ApplyInfo({ apply }: { apply: ApplyDetail }) {
  const { t } = useTranslation();
  return (
    <RequestFacts
      request={apply}
      before={[
        { key: 'process', label: t('work.process'), children: apply.processDefinitionName },
        { key: 'category', label: t('work.apply.category'), children: apply.categoryName || '—' },
      ]}
      after={[
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
