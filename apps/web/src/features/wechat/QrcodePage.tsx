/**
 * 二维码: the generic list of QR codes kept for reuse, each with its picture — drawn by the server from the
 * content (GET qrcode/getQRCodeBase64?content=: a PNG data URL, asked once per content and kept) — in its row
 * and, larger, in the view (查看), for whoever may view them (`qrcode_view`).
 */
import './i18n';
import { qrcodeResource } from '@smart/contracts/wechat';
import { useQuery } from '@tanstack/react-query';
import { Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { EMPTY } from '../../platform/crud/values';
import { getData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';

const BASE = `/api/${qrcodeResource.service}/${qrcodeResource.path}`;
const VIEW_CODE = `${qrcodeResource.permission}_view`;

/** The QR code of `content`, `size` pixels square. */
function QrImage({ content, size }: { content: string; size: number }) {
  const { t } = useTranslation();
  const { data, isError } = useQuery({
    queryKey: ['crud', qrcodeResource.key, 'image', content],
    queryFn: () => getData<string>(`${BASE}/getQRCodeBase64`, { content }, { silent: true }),
    staleTime: Number.POSITIVE_INFINITY,
    enabled: content !== '',
  });
  if (isError) return <Typography.Text type="danger">{t('wechat.qrFailed')}</Typography.Text>;
  if (!data) return <Spin size="small" />;
  return (
    <img
      src={data}
      alt={t('wechat.qrOf', { content })}
      width={size}
      height={size}
      style={{ imageRendering: 'pixelated', display: 'block' }}
    />
  );
}

const contentOf = (row: Row) => String(row.content ?? '');

export default function QrcodePage() {
  const { t } = useTranslation();
  useSession((s) => s.permission); // re-render when grants change
  const canView = can(VIEW_CODE);
  return (
    <CrudPage
      def={qrcodeResource}
      rowName={contentOf}
      columns={{
        extra: canView
          ? [
              {
                title: t('wechat.qrImage'),
                key: 'qr',
                width: 88,
                render: (_: unknown, row: Row) =>
                  contentOf(row) ? <QrImage content={contentOf(row)} size={64} /> : EMPTY,
              },
            ]
          : [],
      }}
      fields={{
        // the view shows the content and, under it, its QR code
        content: {
          view: (value) =>
            value ? (
              <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
                <Typography.Text style={{ wordBreak: 'break-all' }}>{String(value)}</Typography.Text>
                {canView && <QrImage content={String(value)} size={200} />}
              </div>
            ) : (
              EMPTY
            ),
        },
      }}
    />
  );
}
