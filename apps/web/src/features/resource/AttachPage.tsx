/**
 * 附件管理: the generic list of attachments (name, kind, size, when), with
 * - 上传 in the toolbar for whoever holds `attach_upload` (POST attach/upload: checked by content on the
 *   server, stored once per content — the same file again says so);
 * - per row 预览: an image's thumbnail in a dialog, a PDF opened in a new tab (read through the download
 *   route, so it needs `attach_download` too), other kinds say they cannot be previewed;
 * - per row 下载 for whoever holds `attach_download`: the file under its original name.
 */
import './i18n';
import { UploadOutlined } from '@ant-design/icons';
import { ATTACH_IMAGE_KINDS, ATTACH_PATHS, type AttachKind, attachResource } from '@smart/contracts/attach';
import { App, Button, Modal, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { downloadFile, uploadWithProgress } from '../../platform/crud/transfer';
import { request } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';

const BASE = `/api/${attachResource.service}/${attachResource.path}`;
const UPLOAD_CODE = `${attachResource.permission}_upload`;
const DOWNLOAD_CODE = `${attachResource.permission}_download`;
const nameOf = (row: Row) => String(row.originalName ?? '');
const kindOf = (row: Row) => String(row.extension ?? '') as AttachKind;
const isImage = (row: Row) => ATTACH_IMAGE_KINDS.includes(kindOf(row)) && typeof row.thumb === 'string';

/** A size in bytes as people read it: 512 B, 1.5 KB, 2.25 MB. */
export function formatSize(value: unknown): string {
  const n = Number(value);
  if (value === null || value === undefined || value === '' || !Number.isFinite(n)) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 2 : 1)} KB`;
  return `${(n / 1024 / 1024).toFixed(2)} MB`;
}

function UploadButton({ onDone }: { onDone: () => Promise<void> }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<number | null>(null);
  return (
    <Upload
      showUploadList={false}
      customRequest={async ({ file, onSuccess, onError }) => {
        const blob = file as File;
        const form = new FormData();
        form.append('file', blob);
        setBusy(0);
        try {
          // the server's refusal (kind, size, quota) is shown by uploadWithProgress
          const saved = await uploadWithProgress<Row & { reused?: boolean }>(
            ATTACH_PATHS.upload,
            form,
            undefined,
            setBusy,
          );
          message.success(
            t(saved.reused ? 'resource.attachReused' : 'resource.attachUploaded', { name: nameOf(saved) }),
          );
          onSuccess?.(saved);
          await onDone();
        } catch (e) {
          onError?.(e as Error);
        } finally {
          setBusy(null);
        }
      }}
    >
      <Button
        type="primary"
        icon={<UploadOutlined aria-hidden />}
        loading={busy !== null}
        title={t('resource.attachHint')}
      >
        {busy !== null && busy < 100 ? `${t('resource.attachUpload')} ${busy}%` : t('resource.attachUpload')}
      </Button>
    </Upload>
  );
}

export default function AttachPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  useSession((s) => s.permission); // re-render when grants change
  const [previewing, setPreviewing] = useState<Row | null>(null);

  const download = (row: Row) =>
    downloadFile(`${BASE}/download`, { id: String(row.id) }, nameOf(row)).catch(() => {
      // the http client has shown what went wrong
    });
  const preview = async (row: Row) => {
    if (isImage(row)) return setPreviewing(row);
    if (kindOf(row) !== 'pdf') return message.info(t('resource.attachNoPreview'));
    // a tab opened now (before the wait) is not taken for a pop-up; it shows the PDF once it has arrived
    const tab = window.open('', '_blank');
    try {
      const blob = await request<Blob>(`${BASE}/download`, {
        method: 'GET',
        params: { id: String(row.id) },
        responseType: 'blob',
      });
      const href = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
      if (tab) tab.location.href = href;
      else window.open(href, '_blank');
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
    } catch {
      tab?.close(); // the http client has shown what went wrong
    }
  };
  const mayPreview = (row: Row) => isImage(row) || (kindOf(row) === 'pdf' && can(DOWNLOAD_CODE));

  return (
    <>
      <CrudPage
        def={attachResource}
        rowName={nameOf}
        toolbar={(ctx) => can(UPLOAD_CODE) && <UploadButton onDone={ctx.refresh} />}
        columns={{
          render: {
            attachSize: (v) => <span data-testid="attach-size">{formatSize(v)}</span>,
            extension: (v) => (v ? <Tag>{String(v).toUpperCase()}</Tag> : null),
          },
        }}
        rowActions={(row) => (
          <>
            {mayPreview(row) && (
              <Button
                type="link"
                size="small"
                onClick={() => void preview(row)}
                aria-label={`${t('resource.attachPreview')} ${nameOf(row)}`}
              >
                {t('resource.attachPreview')}
              </Button>
            )}
            {can(DOWNLOAD_CODE) && (
              <Button
                type="link"
                size="small"
                onClick={() => void download(row)}
                aria-label={`${t('resource.attachDownload')} ${nameOf(row)}`}
              >
                {t('resource.attachDownload')}
              </Button>
            )}
          </>
        )}
      />
      {previewing && (
        <Modal
          open
          title={t('resource.attachPreviewTitle', { name: nameOf(previewing) })}
          onCancel={() => setPreviewing(null)}
          footer={
            can(DOWNLOAD_CODE) ? (
              <Button onClick={() => void download(previewing)}>{t('resource.attachDownload')}</Button>
            ) : null
          }
        >
          <div style={{ textAlign: 'center' }}>
            <img
              src={String(previewing.thumb)}
              alt={nameOf(previewing)}
              style={{ maxWidth: '100%' }}
              data-testid="attach-thumb"
            />
            <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
              {formatSize(previewing.attachSize)}
            </Typography.Paragraph>
          </div>
        </Modal>
      )}
    </>
  );
}
