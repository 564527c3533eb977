/**
 * 模型管理: the generic list, whose form holds the fields' prototypes as a grid (the definition's child), and
 * per row 读取字段 (`model_sync`): the table's columns now, compared with the prototypes — added, removed and
 * changed columns listed — and applied to the model only when asked.
 */
import './i18n';
import { modelResource } from '@smart/contracts/develop';
import { Alert, Button, Descriptions, Modal } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudContext, CrudPage, type Row } from '../../platform/crud/CrudPage';
import { postData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';

const BASE = `/api/${modelResource.service}/${modelResource.path}`;
const SYNC_CODE = `${modelResource.permission}_sync`;

interface Diff {
  added: string[];
  removed: string[];
  changed: string[];
  applied: boolean;
}

function SyncDialog({ row, ctx, onClose }: { row: Row; ctx: CrudContext; onClose: () => void }) {
  const { t } = useTranslation();
  const [diff, setDiff] = useState<Diff | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    postData<Diff>(`${BASE}/sync`, { id: row.id })
      .then((d) => live && setDiff(d))
      .catch(() => live && onClose()); // the http client has shown what went wrong
    return () => {
      live = false;
    };
  }, [row.id, onClose]);
  const apply = async () => {
    setBusy(true);
    try {
      setDiff(await postData<Diff>(`${BASE}/sync`, { id: row.id, apply: true }));
      await ctx.refresh();
    } catch {
      // the http client has shown what went wrong
    } finally {
      setBusy(false);
    }
  };
  const none = diff && !diff.added.length && !diff.removed.length && !diff.changed.length;
  return (
    <Modal
      open
      title={t('develop.syncTitle', { name: String(row.modelName ?? '') })}
      onCancel={onClose}
      footer={[
        <Button key="close" onClick={onClose}>
          {t('common.close')}
        </Button>,
        diff && !none && !diff.applied && (
          <Button key="apply" type="primary" loading={busy} onClick={apply}>
            {t('develop.apply')}
          </Button>
        ),
      ]}
    >
      {none && <Alert type="success" showIcon message={t('develop.syncNone')} />}
      {diff?.applied && (
        <Alert type="success" showIcon message={t('develop.applied')} style={{ marginBottom: 12 }} />
      )}
      {diff && !none && (
        <Descriptions column={1} size="small" bordered data-testid="model-sync-diff">
          <Descriptions.Item label={t('develop.addedColumns')}>
            {diff.added.join(', ') || '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('develop.removedColumns')}>
            {diff.removed.join(', ') || '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('develop.changedColumns')}>
            {diff.changed.join(', ') || '—'}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
}

export default function ModelPage() {
  const { t } = useTranslation();
  useSession((s) => s.permission); // re-render when grants change
  const [syncing, setSyncing] = useState<{ row: Row; ctx: CrudContext } | null>(null);
  // stable: the dialog reads the differences once, not on every render
  const close = useCallback(() => setSyncing(null), []);
  return (
    <>
      <CrudPage
        def={modelResource}
        rowName={(row) => String(row.modelName ?? '')}
        rowActions={(row, ctx) =>
          can(SYNC_CODE) ? (
            <Button
              type="link"
              size="small"
              onClick={() => setSyncing({ row, ctx })}
              aria-label={`${t('develop.sync')} ${row.modelName}`}
            >
              {t('develop.sync')}
            </Button>
          ) : null
        }
      />
      {syncing && (
        <SyncDialog key={String(syncing.row.id)} row={syncing.row} ctx={syncing.ctx} onClose={close} />
      )}
    </>
  );
}
