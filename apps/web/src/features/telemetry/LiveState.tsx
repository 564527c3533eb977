/** A device's live state as its list rows answer it: online, offline (silent), or no data ever; and lists that follow it. */
import { useQueryClient } from '@tanstack/react-query';
import { Tag } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export function LiveState({ online, lastSeenAt }: { online: unknown; lastSeenAt: unknown }) {
  const { t } = useTranslation();
  if (!lastSeenAt) return <Tag>{t('telemetry.noData')}</Tag>;
  return Number(online) === 1 ? (
    <Tag color="green">{t('telemetry.online')}</Tag>
  ) : (
    <Tag color="red">{t('telemetry.offline')}</Tag>
  );
}

/**
 * A list whose rows change without anyone saving (a device's state, new alarms) is read again every `ms`
 * while the page is shown.
 */
export function useListRefresh(resourceKey: string, ms: number) {
  const client = useQueryClient();
  useEffect(() => {
    const every = setInterval(() => {
      if (!document.hidden) void client.invalidateQueries({ queryKey: ['crud', resourceKey] });
    }, ms);
    return () => clearInterval(every);
  }, [client, resourceKey, ms]);
}
