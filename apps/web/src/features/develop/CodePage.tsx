/**
 * 代码生成: the generic list, and per row 预览代码 (`code_preview`: every generated file, by path, each
 * copyable), 下载代码 (`code_gen`: the zip of exactly those files) and, among its secondary actions, 复制
 * (the add code: the row again as `<name>-copy`).
 */
import './i18n';
import { codeResource } from '@smart/contracts/develop';
import { App, Button, Modal, Tabs } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { downloadFile } from '../../platform/crud/transfer';
import { postData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';

const BASE = `/api/${codeResource.service}/${codeResource.path}`;
const PREVIEW_CODE = `${codeResource.permission}_preview`;
const GEN_CODE = `${codeResource.permission}_gen`;
const ADD_CODE = `${codeResource.permission}_add`;

interface GenFile {
  path: string;
  content: string;
}

function Preview({ row, onClose }: { row: Row; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [files, setFiles] = useState<GenFile[] | null>(null);
  useEffect(() => {
    let live = true;
    postData<{ files: GenFile[] }>(`${BASE}/preview`, { id: row.id })
      .then((r) => live && setFiles(r.files))
      .catch(() => live && onClose());
    return () => {
      live = false;
    };
  }, [row.id, onClose]);
  const copy = async (text: string) => {
    await navigator.clipboard.writeText(text);
    message.success(t('common.copied'));
  };
  return (
    <Modal
      open
      width={Math.min(1100, window.innerWidth - 32)}
      title={t('develop.previewTitle', { name: String(row.codeName) })}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('common.close')}</Button>}
      loading={!files}
      destroyOnHidden
    >
      {files && (
        <Tabs
          tabPosition="left"
          items={files.map((f) => ({
            key: f.path,
            label: <span title={f.path}>{f.path.split('/').pop()}</span>,
            children: (
              <div>
                <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8, marginBottom: 8 }}>
                  <code>{f.path}</code>
                  <Button
                    size="small"
                    onClick={() => copy(f.content)}
                    aria-label={`${t('common.copy')} ${f.path}`}
                  >
                    {t('common.copy')}
                  </Button>
                </div>
                <pre
                  data-path={f.path}
                  style={{
                    maxHeight: '60vh',
                    overflow: 'auto',
                    fontSize: 12,
                    margin: 0,
                    padding: 12,
                    background: 'rgba(127,127,127,0.08)',
                  }}
                >
                  {f.content}
                </pre>
              </div>
            ),
          }))}
        />
      )}
    </Modal>
  );
}

export default function CodePage() {
  useSession((s) => s.permission); // re-render when grants change
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [previewOf, setPreviewOf] = useState<Row | null>(null);
  const closePreview = useCallback(() => setPreviewOf(null), []);
  const download = (row: Row) =>
    downloadFile(`${BASE}/gen-code`, { id: row.id, system: 'smart' }, `${String(row.serviceName)}.zip`).catch(
      () => undefined, // the http client has shown what went wrong
    );
  return (
    <>
      <CrudPage
        def={codeResource}
        rowName={(row) => String(row.codeName ?? '')}
        rowActions={(row) => (
          <>
            {can(PREVIEW_CODE) && (
              <Button
                type="link"
                size="small"
                onClick={() => setPreviewOf(row)}
                aria-label={`${t('develop.previewCode')} ${row.codeName}`}
              >
                {t('develop.previewCode')}
              </Button>
            )}
            {can(GEN_CODE) && (
              <Button
                type="link"
                size="small"
                onClick={() => download(row)}
                aria-label={`${t('develop.downloadCode')} ${row.codeName}`}
              >
                {t('develop.downloadCode')}
              </Button>
            )}
          </>
        )}
        moreActions={(row, ctx) =>
          can(ADD_CODE)
            ? [
                {
                  key: 'copy',
                  label: t('common.copy'),
                  onClick: () => {
                    postData<{ codeName: string }>(`${BASE}/copy`, { id: row.id })
                      .then(async (r) => {
                        message.success(t('develop.copiedAs', { name: r.codeName }));
                        await ctx.refresh();
                      })
                      .catch(() => undefined);
                  },
                },
              ]
            : []
        }
      />
      {previewOf && <Preview row={previewOf} onClose={closePreview} />}
    </>
  );
}
