/** A device's live state as its list rows answer it: online, offline (silent), or no data ever. */
import { Tag } from 'antd';
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
