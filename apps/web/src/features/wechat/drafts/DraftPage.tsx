/**
 * 草稿箱: the drafts (the generic list), 新增草稿 and 编辑 in the draft editor (up to 8 articles, rich text,
 * covers), 删除 after a confirmation (WeChat's draft too), and 发布 after a confirmation: the publish then shows
 * in a dialog that follows WeChat's answer (已提交 → 发布中 → an outcome) until it is final.
 */
import '../i18n';
import './i18n';
import { wxDraftResource } from '@smart/contracts/wechat-drafts';
import { App, Button, Modal, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../../platform/crud/CrudPage';
import type { CrudContext, Row } from '../../../platform/crud/types';
import { postData } from '../../../platform/http/client';
import { can, useSession } from '../../../platform/session/session';
import { DraftEditor } from './DraftEditor';
import { PublishState } from './PublishState';

const API = '/api/dfem-hope-wx/wxDraft';
const titleOf = (row: Row) => String(row.title ?? '');

export default function DraftPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  useSession((s) => s.permission);
  const [editing, setEditing] = useState<{ draft: Row | null; ctx: CrudContext } | null>(null);
  const [following, setFollowing] = useState<Row | null>(null);
  const [outcome, setOutcome] = useState<Row | null>(null);

  const remove = async (row: Row, ctx: CrudContext) => {
    try {
      await postData(`${API}/del/${row.id}`);
      message.success(t('common.succeeded'));
      await ctx.refresh();
    } catch {
      // shown by the http client
    }
  };

  const publish = (row: Row, ctx: CrudContext) =>
    modal.confirm({
      title: t('wxpub.publishConfirmTitle'),
      content: t('wxpub.publishConfirm', { title: titleOf(row) }),
      okText: t('wxpub.publish'),
      onOk: async () => {
        try {
          setOutcome(null);
          setFollowing(await postData<Row>(`${API}/publish/${row.id}`));
        } catch {
          // shown by the http client
        }
        await ctx.refresh();
      },
    });

  return (
    <>
      <CrudPage
        def={wxDraftResource}
        rowName={titleOf}
        toolbar={(ctx) =>
          can('wxDraft_add') && (
            <Button type="primary" onClick={() => setEditing({ draft: null, ctx })}>
              {t('wxpub.newDraft')}
            </Button>
          )
        }
        rowActions={(row, ctx) => (
          <Space size={0} wrap>
            {can('wxDraft_edit') && (
              <Button
                type="link"
                size="small"
                aria-label={`${t('common.edit')} ${titleOf(row)}`}
                onClick={() => setEditing({ draft: row, ctx })}
              >
                {t('common.edit')}
              </Button>
            )}
            {can('wxDraft_publish') && (
              <Button
                type="link"
                size="small"
                aria-label={`${t('wxpub.publish')} ${titleOf(row)}`}
                onClick={() => publish(row, ctx)}
              >
                {t('wxpub.publish')}
              </Button>
            )}
            {can('wxDraft_delete') && (
              <Popconfirm
                title={t('wxpub.deleteDraftConfirm', { title: titleOf(row) })}
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
      <DraftEditor
        open={!!editing}
        draft={editing?.draft ?? null}
        onClose={() => setEditing(null)}
        onSaved={() => {
          const ctx = editing?.ctx;
          setEditing(null);
          void ctx?.refresh();
        }}
      />
      <Modal
        open={!!following}
        title={t('wxpub.publishing')}
        footer={null}
        onCancel={() => setFollowing(null)}
        destroyOnHidden
      >
        {following && (
          <Space direction="vertical">
            <Typography.Text strong>{titleOf(following)}</Typography.Text>
            <PublishState row={following} onFinal={setOutcome} />
            {!outcome ? (
              <Typography.Text type="secondary">{t('wxpub.publishFollow')}</Typography.Text>
            ) : outcome.url ? (
              <Typography.Link href={String(outcome.url)} target="_blank" rel="noopener noreferrer">
                {t('wxpub.publishDone')}: {t('wxpub.link')}
              </Typography.Link>
            ) : (
              <Typography.Text type="danger">
                {t('wxpub.publishFailed', { failed: String(outcome.failed || outcome.stateName || '') })}
              </Typography.Text>
            )}
          </Space>
        )}
      </Modal>
    </>
  );
}
