/**
 * 启用 of a config of which a tenant has exactly one enabled (对象存储, 短信配置): after a confirmation that
 * says the others are disabled, POST `<base>/enable`, then the list again.
 */
import { App, Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CrudContext, Row } from '../../platform/crud/CrudPage';
import { postData } from '../../platform/http/client';

export function EnableAction(props: {
  base: string;
  row: Row;
  name: string;
  confirm: string;
  ctx: CrudContext;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const enable = () =>
    modal.confirm({
      title: t('resource.enable'),
      content: props.confirm,
      onOk: async () => {
        try {
          await postData(`${props.base}/enable`, { id: props.row.id });
          message.success(t('common.succeeded'));
          await props.ctx.refresh();
        } catch {
          // the http client has shown what went wrong
        }
      },
    });
  return (
    <Button type="link" size="small" onClick={enable} aria-label={`${t('resource.enable')} ${props.name}`}>
      {t('resource.enable')}
    </Button>
  );
}

/** The enabled tag of such a config's row. */
export function EnabledTag({ row }: { row: Row }) {
  const { t } = useTranslation();
  return Number(row.enabled) === 1 ? (
    <Tag color="green">{t('resource.enabled')}</Tag>
  ) : (
    <Tag>{t('resource.disabled')}</Tag>
  );
}
