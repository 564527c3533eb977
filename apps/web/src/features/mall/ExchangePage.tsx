/**
 * 兑换列表: the generic list of exchanges, with 核销 (the counter scans the villager's QR code — a scanner
 * types the code and Enter — or a clerk types it), each awaiting exchange's QR code, and 取消兑换 (a
 * reason; the server returns the points and the stock together).
 */
import './i18n';
import { QrcodeOutlined, ScanOutlined } from '@ant-design/icons';
import { EXCHANGE_STATUS, exchangeListResource } from '@smart/contracts/mall';
import { Alert, App, Button, Image, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import type { CrudContext, Row } from '../../platform/crud/types';
import { getData, postData } from '../../platform/http/client';
import { can } from '../../platform/session/session';
import { ReasonDialog } from './ReasonDialog';

const API = '/api/dfem-hope-manage/exchangeList';

function VerifyDialog({
  open,
  onClose,
  onVerified,
}: {
  open: boolean;
  onClose: () => void;
  onVerified: () => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<Row | null>(null);
  const verify = async () => {
    if (!code.trim()) return;
    setBusy(true);
    try {
      const row = await postData<Row>(`${API}/verify`, { code: code.trim() });
      setDone(row);
      setCode('');
      onVerified();
    } catch {
      // the http client shows why (unknown code, already collected)
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('mall.verifyTitle')}
      onCancel={() => {
        setDone(null);
        onClose();
      }}
      onOk={verify}
      okText={t('mall.verify')}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('mall.verifyHint')}</Typography.Text>
        <Input
          aria-label={t('mall.code')}
          autoFocus
          value={code}
          maxLength={40}
          onChange={(e) => setCode(e.target.value)}
          onPressEnter={verify}
          prefix={<ScanOutlined />}
          style={{ fontFamily: 'monospace', letterSpacing: 2 }}
        />
        {done && (
          <Alert
            type="success"
            showIcon
            role="status"
            message={t('mall.verifyDone', {
              villager: String(done.villagerName ?? ''),
              goods: String(done.goodsName ?? ''),
              quantity: String(done.quantity ?? ''),
            })}
          />
        )}
      </Space>
    </Modal>
  );
}

function QrDialog({ row, onClose }: { row: Row | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [qr, setQr] = useState<{ id: string; code: string; image: string } | null>(null);
  if (row && qr?.id !== row.id)
    void getData<{ code: string; image: string }>(`${API}/qrcode`, { id: row.id }).then((q) =>
      setQr({ id: String(row.id), ...q }),
    );
  const shown = row && qr?.id === row.id ? qr : null;
  return (
    <Modal
      open={!!row}
      title={t('mall.qrTitle')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={360}
    >
      {shown && (
        <Space direction="vertical" align="center" style={{ width: '100%' }}>
          <Image src={shown.image} alt={`${t('mall.qrTitle')} ${shown.code}`} width={240} preview={false} />
          <Typography.Text
            copyable
            strong
            style={{ fontFamily: 'monospace', fontSize: 20, letterSpacing: 3 }}
          >
            {shown.code}
          </Typography.Text>
          <Typography.Text type="secondary">{t('mall.qrHint')}</Typography.Text>
        </Space>
      )}
    </Modal>
  );
}

export default function ExchangePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [verifying, setVerifying] = useState<CrudContext | null>(null);
  const [showing, setShowing] = useState<Row | null>(null);
  const [cancelling, setCancelling] = useState<{ row: Row; ctx: CrudContext } | null>(null);
  const toCollect = (row: Row) => String(row.exchangeStatus) === EXCHANGE_STATUS.toCollect;
  return (
    <>
      <CrudPage
        def={exchangeListResource}
        toolbar={(ctx) =>
          can('exchange_list_verify') && (
            <Button type="primary" icon={<ScanOutlined />} onClick={() => setVerifying(ctx)}>
              {t('mall.verify')}
            </Button>
          )
        }
        rowActions={(row, ctx) =>
          toCollect(row) && (
            <>
              <Button
                type="link"
                size="small"
                icon={<QrcodeOutlined />}
                onClick={() => setShowing(row)}
                aria-label={`${t('mall.qrcode')} ${String(row.goodsName ?? '')}`}
              >
                {t('mall.qrcode')}
              </Button>
              {can('exchange_list_cancel') && (
                <Button type="link" size="small" danger onClick={() => setCancelling({ row, ctx })}>
                  {t('mall.cancel')}
                </Button>
              )}
            </>
          )
        }
      />
      <VerifyDialog
        open={!!verifying}
        onClose={() => setVerifying(null)}
        onVerified={() => void verifying?.refresh()}
      />
      <QrDialog row={showing} onClose={() => setShowing(null)} />
      <ReasonDialog
        open={!!cancelling}
        title={t('mall.cancelTitle')}
        hint={t('mall.cancelHint')}
        onCancel={() => setCancelling(null)}
        onSubmit={async (reason) => {
          if (!cancelling) return;
          await postData(`${API}/cancel`, { id: cancelling.row.id, reason });
          message.success(t('mall.done'));
          await cancelling.ctx.refresh();
          setCancelling(null);
        }}
      />
    </>
  );
}
