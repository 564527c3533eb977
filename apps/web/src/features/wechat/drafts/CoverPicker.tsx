/**
 * An article's cover: one of the account's image materials (素材管理, type 图片), or a picture uploaded here as a
 * new image material (`wxMaterial/upload?type=1`, WeChat's limits checked by the server). The draft keeps its
 * media_id; WeChat's picture hosts do not serve other sites, so the name is shown rather than the picture.
 */
import { WX_MATERIAL } from '@smart/contracts/wechat-rules';
import { App, Button, Select, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData, request } from '../../../platform/http/client';
import { can } from '../../../platform/session/session';

const MATERIALS = '/api/dfem-hope-wx/wxMaterial';

interface Material {
  id: string;
  name?: string;
  mediaId: string;
  url?: string;
}

export function CoverPicker({
  value,
  onChange,
  accountId,
  id,
  label,
}: {
  value?: string;
  onChange: (mediaId: string, url: string) => void;
  accountId?: string;
  id: string;
  label: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [options, setOptions] = useState<Material[]>([]);
  const [uploading, setUploading] = useState(false);
  const file = useRef<HTMLInputElement>(null);

  const load = async () => {
    const page = await getData<{ records: Material[] }>(`${MATERIALS}/page`, {
      current: 1,
      size: 100,
      type: WX_MATERIAL.image,
      ...(accountId ? { accountId } : {}),
    }).catch(() => ({ records: [] as Material[] }));
    setOptions(page.records);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when the account changes
  useEffect(() => {
    void load();
  }, [accountId]);

  const upload = async (f: File) => {
    setUploading(true);
    try {
      const body = new FormData();
      body.append('file', f);
      const res = await request<{ data: Material }>(`${MATERIALS}/upload`, {
        method: 'POST',
        body,
        params: { type: WX_MATERIAL.image, ...(accountId ? { accountId } : {}) },
      });
      await load();
      onChange(res.data.mediaId, res.data.url ?? '');
      message.success(t('common.succeeded'));
    } catch {
      // the http client showed the reason (WeChat's limits on an image material)
    } finally {
      setUploading(false);
      if (file.current) file.current.value = '';
    }
  };

  return (
    <Space wrap>
      <Select
        id={id}
        aria-label={label}
        style={{ minWidth: 260 }}
        placeholder={t('wxpub.chooseCover')}
        value={value || undefined}
        notFoundContent={t('wxpub.noCovers')}
        options={options.map((m) => ({ value: m.mediaId, label: m.name || m.mediaId }))}
        onChange={(v: string) => onChange(v, options.find((m) => m.mediaId === v)?.url ?? '')}
      />
      {can('wxMaterial_upload') && (
        <>
          <Button loading={uploading} onClick={() => file.current?.click()}>
            {t('wxpub.uploadCover')}
          </Button>
          <input
            ref={file}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/bmp"
            style={{ display: 'none' }}
            aria-label={t('wxpub.uploadCover')}
            data-testid="wx-upload-cover"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void upload(f);
            }}
          />
        </>
      )}
    </Space>
  );
}
