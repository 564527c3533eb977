/** Photos of village records: uploaded to the server (JPG/PNG, checked by content), kept as their paths. */
import { PlusOutlined } from '@ant-design/icons';
import type { FieldDef } from '@smart/contracts';
import { App, Image, Upload, type UploadFile } from 'antd';
import { useTranslation } from 'react-i18next';
import { uploadWithProgress } from '../../platform/crud/transfer';

const UPLOAD_URL = '/api/dfem-hope-manage/file/image';

const paths = (v: unknown) =>
  v === undefined || v === null || v === '' ? [] : String(v).split(',').filter(Boolean);

export function ImageField({
  field,
  value,
  onChange,
  disabled,
  id,
}: {
  field: FieldDef;
  value?: unknown;
  onChange?: (v: unknown) => void;
  disabled?: boolean;
  id?: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const multiple = (field.max ?? 500) > 500;
  const list = paths(value);
  const files: UploadFile[] = list.map((url, i) => ({
    uid: `${i}-${url}`,
    name: url.split('/').pop() ?? url,
    url,
    status: 'done',
  }));
  return (
    <div id={id}>
      <Upload
        listType="picture-card"
        accept="image/png,image/jpeg"
        fileList={files}
        disabled={disabled}
        maxCount={multiple ? 9 : 1}
        showUploadList={{ showRemoveIcon: !disabled }}
        onRemove={(f) => {
          onChange?.(list.filter((u) => u !== f.url).join(','));
          return true;
        }}
        customRequest={async ({ file, onSuccess, onError }) => {
          const form = new FormData();
          form.append('file', file as Blob);
          try {
            const { url } = await uploadWithProgress<{ url: string }>(UPLOAD_URL, form, undefined, () => {});
            onChange?.((multiple ? [...list, url] : [url]).join(','));
            onSuccess?.({ url });
          } catch (e) {
            message.error(t('village.uploadFailed'));
            onError?.(e as Error);
          }
        }}
      >
        {!disabled && (multiple || list.length === 0) && (
          <button type="button" style={{ border: 0, background: 'none' }} aria-label={t('village.upload')}>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>{t('village.upload')}</div>
          </button>
        )}
      </Upload>
      {!disabled && <div style={{ color: '#8c8c8c', fontSize: 12 }}>{t('village.imageHint')}</div>}
    </div>
  );
}

/** A thumbnail in a table cell. */
export function ImageCell({ value }: { value: unknown }) {
  const [first] = paths(value);
  return first ? <Image src={first} width={40} height={40} style={{ objectFit: 'cover' }} alt="" /> : null;
}
