/** The leave pages' record: the request as the desk's leave/detail answers it. */
import { useQuery } from '@tanstack/react-query';
import { Empty, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { RequestFacts } from '../process/RequestRecord';
import { fetchLeave, type LeaveDetail, leaveDays } from './leave';

export function useLeave(businessId: string | undefined) {
  return useQuery({
    queryKey: ['leave', businessId],
    queryFn: () => fetchLeave(businessId!),
    enabled: !!businessId,
    refetchOnMount: 'always',
  });
}

export function LeaveInfo({ leave }: { leave: LeaveDetail }) {
  const { t } = useTranslation();
  return (
    <RequestFacts
      request={leave}
      after={[
        { key: 'startTime', label: t('work.leave.startTime'), children: leave.startTime },
        { key: 'endTime', label: t('work.leave.endTime'), children: leave.endTime },
        {
          key: 'days',
          label: t('work.leave.days'),
          children: t('work.leave.daysValue', { days: leaveDays(leave.startTime, leave.endTime) }),
        },
        { key: 'reason', label: t('work.leave.reason'), children: leave.reason, span: 'filled' },
      ]}
    />
  );
}

export function LeaveRecord({ businessId }: { businessId: string | undefined }) {
  const leave = useLeave(businessId);
  if (leave.isLoading) return <Spin />;
  if (!leave.data) return <Empty />;
  return <LeaveInfo leave={leave.data} />;
}
