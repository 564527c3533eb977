/** /info/index — personal info as the server knows it (editing and the password tab: a later issue). */
import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../platform/session/session';

export default function InfoPage() {
  const { t } = useTranslation();
  const user = useSession((s) => s.userInfo);
  const rows: [string, string | undefined][] = [
    ['info.account', user?.account],
    ['info.realName', user?.realName],
    ['info.name', user?.name],
    ['info.phone', user?.phone],
    ['info.email', user?.email],
    ['info.tenant', user?.tenantId],
    ['info.role', user?.roleName],
    ['info.dept', user?.deptId],
  ];
  return (
    <section aria-labelledby="info-title" style={{ background: '#fff', borderRadius: 8, padding: 24 }}>
      <h1 id="info-title" style={{ fontSize: 20, marginTop: 0 }}>
        {t('info.title')}
      </h1>
      <Descriptions
        bordered
        column={{ xs: 1, md: 2 }}
        items={rows.map(([key, value]) => ({ key, label: t(key), children: value || t('info.empty') }))}
      />
    </section>
  );
}
