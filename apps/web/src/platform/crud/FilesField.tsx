/**
 * Attachments of records (a `files` field): PDF, Word, Excel, PowerPoint or JPG/PNG, at most 20 MB, uploaded
 * to the server (which checks the content) and kept as the comma-joined paths it issues; GET of a path
 * downloads the file.
 */
import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Upload, type UploadFile } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadFor, uploadWithProgress } from './transfer';
import type { FieldControlProps } from './types';
import { baseName, splitList } from './values';

const UPLOAD_URL = '/api/dfem-hope-manage/file/attach';
const MAX_BYTES = 20 * 1024 * 1024;
const ACCEPT = [
  '.pdf',
  '.doc',
  '.docx',
  '.xls',
  '.xlsx',
  '.ppt',
  '.pptx',
  '.jpg',
  '.jpeg',
  '.png',
  'application/pdf',
  'image/jpeg',
  'image/png',
].join(',');
/** one issued path and its comma: `/api/dfem-hope-manage/file/attach/<uuid>.docx,` */
const PATH_LENGTH = 76;

/** The upload control: the files as a list (each with its remove button), and an upload button. */
export function FilesField({
  field,
  resource,
  value,
  onChange,
  disabled,
  id,
  placeholder,
}: FieldControlProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const list = splitList(value);
  // the latest value, also between two uploads that finish before the form re-renders
  const latest = useRef(list);
  latest.current = list;
  // the names files were uploaded under (the server keeps only its own names): known while the dialog is open
  const names = useRef(new Map<string, string>());
  const [pending, setPending] = useState<UploadFile[]>([]);
  const maxFiles = Math.max(1, Math.floor(((field.max ?? 2000) + 1) / PATH_LENGTH));
  const change = (next: string[]) => {
    latest.current = next;
    onChange?.(next.join(','));
  };
  const files: UploadFile[] = [
    ...list.map(
      (url): UploadFile => ({
        uid: url,
        name: names.current.get(url) ?? baseName(url),
        url,
        status: 'done',
      }),
    ),
    ...pending,
  ];
  const full = list.length + pending.length >= maxFiles;
  return (
    <div id={id}>
      <Upload
        accept={ACCEPT}
        multiple
        fileList={files}
        disabled={disabled}
        showUploadList={{ showRemoveIcon: !disabled, showDownloadIcon: false }}
        beforeUpload={(file) => {
          if (file.size > MAX_BYTES) {
            message.error(`${file.name}: ${t('crud.attachHint')}`);
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        onRemove={(f) => {
          if (f.url) change(latest.current.filter((u) => u !== f.url));
          return true;
        }}
        customRequest={async ({ file, onSuccess, onError }) => {
          const blob = file as File;
          const uid = (file as UploadFile).uid ?? `${Date.now()}`;
          const track = (patch: Partial<UploadFile> | null) =>
            setPending((p) =>
              patch ? p.map((x) => (x.uid === uid ? { ...x, ...patch } : x)) : p.filter((x) => x.uid !== uid),
            );
          setPending((p) => [...p, { uid, name: blob.name, status: 'uploading', percent: 0 }]);
          const form = new FormData();
          form.append('file', blob);
          try {
            // the server's refusal (size, kind) is shown by uploadWithProgress
            const { url, originalName } = await uploadWithProgress<{ url: string; originalName?: string }>(
              UPLOAD_URL,
              form,
              uploadFor(resource, field),
              (percent) => track({ percent }),
            );
            names.current.set(url, originalName || blob.name);
            track(null);
            change([...latest.current, url]);
            onSuccess?.({ url });
          } catch (e) {
            track(null);
            onError?.(e as Error);
          }
        }}
      >
        {!disabled && (
          <Button
            icon={<UploadOutlined aria-hidden />}
            disabled={full}
            aria-label={`${t('crud.attach')} · ${placeholder}`}
          >
            {t('crud.attach')}
          </Button>
        )}
      </Upload>
      {!disabled && (
        <div style={{ color: '#8c8c8c', fontSize: 12, marginTop: 4 }}>{t('crud.attachHint')}</div>
      )}
    </div>
  );
}

/** A table cell: how many files there are. */
export function FilesCount({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const count = splitList(value).length;
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      <PaperClipOutlined aria-hidden /> {t('crud.fileCount', { count })}
    </span>
  );
}

/** The view dialog: each file as a link that downloads it. */
export function FileLinks({ value }: { value: unknown }) {
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {splitList(value).map((url) => (
        <li key={url}>
          <a href={url} download>
            <PaperClipOutlined aria-hidden /> {baseName(url)}
          </a>
        </li>
      ))}
    </ul>
  );
}
