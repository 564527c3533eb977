import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useTags } from '../../platform/session/tags';
import { activeTagValue, tagLabel } from './useNavMenu';

/** The open pages: the home tab first; closable unless only one is left; clicking switches route. */
export function TagsBar() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const tags = useTags((s) => s.tags);
  const remove = useTags((s) => s.remove);
  const active = activeTagValue(tags, pathname, search);

  const close = (value: string) => {
    const index = tags.findIndex((tag) => tag.value === value);
    if (index === -1 || tags.length <= 1) return;
    remove(value);
    if (value === active) {
      const next = tags[index + 1] ?? tags[index - 1];
      if (next) void navigate(next.value);
    }
  };

  return (
    <div style={{ background: '#fff', padding: '6px 12px 0', borderBottom: '1px solid #f0f0f0' }}>
      <Tabs
        aria-label={t('tags.label')}
        type="editable-card"
        size="small"
        hideAdd
        locale={{ removeAriaLabel: t('tags.close'), dropdownAriaLabel: t('tags.more') }}
        activeKey={active}
        onChange={(key) => navigate(key)}
        onEdit={(key, action) => action === 'remove' && typeof key === 'string' && close(key)}
        items={tags.map((tag) => ({ key: tag.value, label: tagLabel(tag, t), closable: tags.length > 1 }))}
        tabBarStyle={{ margin: 0 }}
      />
    </div>
  );
}
