/** Images of records (photos…): uploaded to the server (JPG/PNG, checked by content), kept as their paths. */
import { PlusOutlined } from '@ant-design/icons';
import { App, Image, Space, Upload, type UploadFile } from 'antd';
import { useTranslation } from 'react-i18next';
import { uploadFor, uploadWithProgress } from './transfer';
import type { FieldControlProps } from './types';
import { splitList } from './values';

const UPLOAD_URL = '/api/dfem-hope-manage/file/image';

/** The upload control of an image field: one image, or up to nine when the field holds a longer list. */
export function ImageField({ field, resource, value, onChange, disabled, id }: FieldControlProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const multiple = (field.max ?? 500) > 500;
  const list = splitList(value);
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
            const { url } = await uploadWithProgress<{ url: string }>(
              UPLOAD_URL,
              form,
              uploadFor(resource, field),
              () => {},
            );
            onChange?.((multiple ? [...list, url] : [url]).join(','));
            onSuccess?.({ url });
          } catch (e) {
            message.error(t('crud.uploadFailed'));
            onError?.(e as Error);
          }
        }}
      >
        {!disabled && (multiple || list.length === 0) && (
          <button type="button" style={{ border: 0, background: 'none' }} aria-label={t('crud.upload')}>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>{t('crud.upload')}</div>
          </button>
        )}
      </Upload>
      {!disabled && <div style={{ color: '#8c8c8c', fontSize: 12 }}>{t('crud.imageHint')}</div>}
    </div>
  );
}

/** A thumbnail in a table cell: the first image, named by its field (it opens the preview: a button). */
export function ImageCell({ value, label }: { value: unknown; label: string }) {
  const [first] = splitList(value);
  return first ? (
    <Image src={first} width={40} height={40} style={{ objectFit: 'cover' }} alt={label} />
  ) : null;
}

/** Every image of the value as a thumbnail that opens the preview (the view dialog). */
export function ImageThumbs({ value, label }: { value: unknown; label: string }) {
  const list = splitList(value);
  return (
    <Image.PreviewGroup>
      <Space wrap>
        {list.map((src, i) => (
          <Image
            key={src}
            src={src}
            width={80}
            height={80}
            style={{ objectFit: 'cover' }}
            alt={list.length > 1 ? `${label} ${i + 1}` : label}
          />
        ))}
      </Space>
    </Image.PreviewGroup>
  );
}
