/**
 * 发布记录: every publish with its state following WeChat (a row not final asks `freePublish/status` with
 * backoff until it is), the failed articles named, the permanent link of a published one, and 删除 after a
 * confirmation (`freePublish/del/{id}`: the articles on WeChat go too).
 */
import '../i18n';
import './i18n';
import { freePublishResource, WX_PUBLISH_STATE } from '@smart/contracts/wechat-drafts';
import { App, Button, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../../platform/crud/CrudPage';
import type { CrudContext, Row } from '../../../platform/crud/types';
import { EMPTY } from '../../../platform/crud/values';
import { getData, postData } from '../../../platform/http/client';
import { can, useSession } from '../../../platform/session/session';
import { PublishState } from './PublishState';

const API = '/api/dfem-hope-wx/freePublish';
const titleOf = (row: Row) => String(row.title ?? '');

export default function PublishPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  useSession((s) => s.permission);
  const remove = async (row: Row, ctx: CrudContext) => {
    try {
      await postData(`${API}/del/${row.id}`);
      message.success(t('common.succeeded'));
      await ctx.refresh();
    } catch {
      // shown by the http client (still publishing: 409)
    }
  };
  return (
    <CrudPage
      def={freePublishResource}
      rowName={titleOf}
      columns={{
        render: {
          state: (_v, row) => <PublishState row={row} />,
          failed: () => null,
          url: (v, row) =>
            v ? (
              <a
                href={String(v)}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`${t('wxpub.link')} ${titleOf(row)}`}
              >
                {t('wxpub.open')}
              </a>
            ) : (
              EMPTY
            ),
        },
      }}
      rowActions={(row, ctx) => (
        <Space size={0} wrap>
          {String(row.state) === WX_PUBLISH_STATE.success && (
            <Button
              type="link"
              size="small"
              aria-label={`${t('wxpub.recheck')} ${titleOf(row)}`}
              onClick={async () => {
                try {
                  await getData(`${API}/status`, { id: String(row.id), recheck: 1 });
                  await ctx.refresh();
                } catch {
                  // shown by the http client
                }
              }}
            >
              {t('wxpub.recheck')}
            </Button>
          )}
          {can('freePublish_delete') && (
            <Popconfirm
              title={t('wxpub.deletePublishConfirm', { title: titleOf(row) })}
              onConfirm={() => remove(row, ctx)}
            >
              <Button type="link" size="small" danger aria-label={`${t('common.delete')} ${titleOf(row)}`}>
                {t('common.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      )}
    />
  );
}
