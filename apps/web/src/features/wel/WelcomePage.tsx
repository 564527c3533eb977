/** /wel/index — the home page: who is signed in, today's date, and the user's menu areas. */
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type TextKey, useLanguage } from '../../platform/i18n';
import { useSession } from '../../platform/session/session';
import { MenuIcon } from '../../shell/layout/icons';
import { useNavMenu } from '../../shell/layout/useNavMenu';
import { countLeaves, firstLeaf } from '../../shell/menu';

function greetingKey(hour: number): TextKey {
  if (hour < 12) return 'wel.morning';
  if (hour < 18) return 'wel.afternoon';
  return 'wel.evening';
}

export default function WelcomePage() {
  const { t } = useTranslation();
  const language = useLanguage((s) => s.language);
  const user = useSession((s) => s.userInfo);
  const tenantId = useSession((s) => s.tenantId);
  const { items } = useNavMenu();
  const now = new Date();
  const name = user?.realName || user?.name || user?.account || '';
  const today = new Intl.DateTimeFormat(language === 'en' ? 'en-US' : 'zh-CN', { dateStyle: 'full' }).format(
    now,
  );
  const areas = items
    .map((item) => ({ item, leaf: firstLeaf(item), pages: countLeaves(item) }))
    .filter((a) => a.leaf);

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <section
        aria-labelledby="wel-greeting"
        style={{ background: '#fff', borderRadius: 8, padding: '20px 24px' }}
      >
        <Typography.Title level={1} id="wel-greeting" style={{ fontSize: 22, margin: 0 }}>
          {t(greetingKey(now.getHours()), { name })}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ margin: '4px 0 12px' }}>
          {t('wel.welcome')}
        </Typography.Paragraph>
        <dl style={{ display: 'flex', flexWrap: 'wrap', gap: '8px 32px', margin: 0 }}>
          {(
            [
              ['wel.tenant', user?.tenantId || tenantId],
              ['wel.role', user?.roleName],
              ['wel.account', user?.account],
              ['wel.today', today],
            ] as const
          ).map(([key, value]) => (
            <div key={key} style={{ display: 'flex', gap: 6 }}>
              <dt style={{ color: '#606266' }}>{t(key)}</dt>
              <dd style={{ margin: 0 }}>{value || '-'}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="wel-areas">
        <Typography.Title level={2} id="wel-areas" style={{ fontSize: 18, margin: '0 0 12px' }}>
          {t('wel.areas')}
        </Typography.Title>
        {areas.length === 0 ? (
          <Typography.Paragraph type="secondary">{t('wel.noAreas')}</Typography.Paragraph>
        ) : (
          <ul
            style={{
              listStyle: 'none',
              margin: 0,
              padding: 0,
              display: 'grid',
              gap: 16,
              gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
            }}
          >
            {areas.map(({ item, leaf, pages }) => (
              <li key={item.id}>
                <Card size="small" hoverable>
                  {leaf!.external ? (
                    <a
                      href={leaf!.path}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={t('wel.open', { name: item.name })}
                    >
                      <AreaBody icon={item.icon} name={item.name} pages={t('wel.pages', { count: pages })} />
                    </a>
                  ) : (
                    <Link to={leaf!.path} aria-label={t('wel.open', { name: item.name })}>
                      <AreaBody icon={item.icon} name={item.name} pages={t('wel.pages', { count: pages })} />
                    </Link>
                  )}
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function AreaBody({ icon, name, pages }: { icon: string; name: string; pages: string }) {
  return (
    <span style={{ display: 'flex', alignItems: 'center', gap: 12, color: 'inherit' }}>
      <span style={{ fontSize: 28, color: '#409EFF' }}>
        <MenuIcon name={icon} />
      </span>
      <span style={{ display: 'flex', flexDirection: 'column' }}>
        <strong style={{ color: '#303133' }}>{name}</strong>
        <span style={{ color: '#606266', fontSize: 12 }}>{pages}</span>
      </span>
    </span>
  );
}
