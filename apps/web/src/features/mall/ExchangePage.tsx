/**
 * 兑换列表: the generic list of exchanges, with 核销 (the counter scans the villager's QR code — a scanner
 * types the code and Enter — or a clerk types it), each awaiting exchange's QR code, and 取消兑换 (a
 * reason; the server returns the points and the stock together).
 */
import './i18n';
import { QrcodeOutlined, ScanOutlined } from '@ant-design/icons';
import { EXCHANGE_STATUS, exchangeListResource } from '@smart/contracts/mall';
import { App, Button, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import type { CrudContext, Row } from '../../platform/crud/types';
import { postData } from '../../platform/http/client';
import { CodeQr, VerifyDialog } from '../../platform/redeem/VerifyDialog';
import { can } from '../../platform/session/session';
import { ReasonDialog } from './ReasonDialog';

const API = '/api/dfem-hope-manage/exchangeList';

function QrDialog({ row, onClose }: { row: Row | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={!!row}
      title={t('mall.qrTitle')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={360}
    >
      {row && (
        <Space direction="vertical" align="center" style={{ width: '100%' }}>
          <CodeQr
            url={`${API}/qrcode`}
            rowId={String(row.id)}
            size={240}
            alt={(code) => t('mall.qrOf', { code })}
            loading={t('mall.qrLoading')}
          />
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
                  {t('mall.cancelExchange')}
                </Button>
              )}
            </>
          )
        }
      />
      {verifying && (
        <VerifyDialog
          url={`${API}/verify`}
          id="mall-verify-code"
          texts={{
            title: t('mall.verifyTitle'),
            label: t('mall.code'),
            hint: t('mall.verifyHint'),
            verify: t('mall.verify'),
            done: t('mall.verifyDone'),
          }}
          describe={(row) =>
            t('mall.verifyOf', {
              villager: String(row.villagerName ?? ''),
              goods: String(row.goodsName ?? ''),
              quantity: String(row.quantity ?? ''),
            })
          }
          onClose={() => setVerifying(null)}
          onVerified={() => void verifying.refresh()}
        />
      )}
      <QrDialog row={showing} onClose={() => setShowing(null)} />
      <ReasonDialog
        open={!!cancelling}
        title={t('mall.cancelTitle')}
        hint={t('mall.cancelHint')}
        onCancel={() => setCancelling(null)}
        onSubmit={async (reason) => {
          if (!cancelling) return;
          await postData(`${API}/cancel`, { id: cancelling.row.id, reason });
          message.success(t('common.succeeded'));
          await cancelling.ctx.refresh();
          setCancelling(null);
        }}
      />
    </>
  );
}
