/**
 * 预约记录: the bookings' list (the generic page) with 核销 — a dialog whose code input has the focus, so a
 * USB scanner's code and Enter verify at once, the result shown in the dialog —, 取消预约 on a booking
 * awaiting its visit (its places go back to the slot), and the booking's QR code in its view.
 */
import './i18n';
import { BOOKING_STATE, tourismBookingResource } from '@smart/contracts/tourism';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Input, type InputRef, Modal, Popconfirm, Space, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type FieldOverride, type Row } from '../../platform/crud/CrudPage';
import { getData, HttpError, postData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';

const BASE = '/api/dfem-hope-manage/tourismBooking';
const code = tourismBookingResource.permission;

/** The code of a booking and its QR image (asked of the server for this booking). */
function BookingQr({ row }: { row: Row }) {
  const { t } = useTranslation();
  const qr = useQuery({
    queryKey: ['tourism', 'qr', row.id],
    queryFn: () => getData<{ code: string; image: string }>(`${BASE}/qr`, { id: row.id }),
    staleTime: 60_000,
  });
  return (
    <Space direction="vertical" size={4}>
      <Typography.Text copyable strong style={{ fontFamily: 'ui-monospace, monospace', letterSpacing: 1 }}>
        {String(row.code ?? '')}
      </Typography.Text>
      {qr.data ? (
        <img
          src={qr.data.image}
          alt={t('tourism.qrOf', { code: qr.data.code })}
          width={160}
          height={160}
          data-testid="booking-qr"
        />
      ) : (
        qr.isLoading && <Spin size="small" aria-label={t('tourism.qrLoading')} />
      )}
    </Space>
  );
}

type Outcome = { ok: true; row: Row } | { ok: false; message: string };

/** 核销: the code typed or scanned (Enter sends it); the result stays until the next code. */
function VerifyDialog({ onClose, onVerified }: { onClose: () => void; onVerified: () => void }) {
  const { t } = useTranslation();
  const input = useRef<InputRef>(null);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  useEffect(() => {
    const id = window.setTimeout(() => input.current?.focus(), 50);
    return () => window.clearTimeout(id);
  }, []);
  const send = async () => {
    const typed = value.trim();
    if (!typed || busy) return;
    setBusy(true);
    try {
      const row = await postData<Row>(`${BASE}/verify`, { code: typed }, undefined, { silent: true });
      setOutcome({ ok: true, row });
      setValue('');
      onVerified();
    } catch (e) {
      setOutcome({ ok: false, message: e instanceof HttpError ? e.message : String(e) });
      setValue('');
    } finally {
      setBusy(false);
      input.current?.focus();
    }
  };
  return (
    <Modal open title={t('tourism.verifyTitle')} onCancel={onClose} footer={null} destroyOnHidden>
      <label htmlFor="tourism-verify-code">{t('tourism.verifyCode')}</label>
      <Input.Search
        id="tourism-verify-code"
        ref={input}
        autoFocus
        autoComplete="off"
        spellCheck={false}
        maxLength={64}
        value={value}
        placeholder={t('tourism.verifyHint')}
        enterButton={t('tourism.verify')}
        loading={busy}
        onChange={(e) => setValue(e.target.value)}
        onSearch={send}
        style={{ margin: '8px 0 16px', fontFamily: 'ui-monospace, monospace' }}
      />
      <div aria-live="polite" data-testid="verify-outcome">
        {outcome?.ok && (
          <Alert
            type="success"
            showIcon
            title={t('tourism.verifyDone')}
            description={t('tourism.verifyOf', {
              name: String(outcome.row.visitorName ?? ''),
              people: Number(outcome.row.people ?? 0),
              slot: String(outcome.row.slotName ?? ''),
            })}
          />
        )}
        {outcome && !outcome.ok && <Alert type="error" showIcon title={outcome.message} />}
      </div>
    </Modal>
  );
}

const fields: Record<string, FieldOverride> = {
  code: { view: (_v, row) => <BookingQr row={row} /> },
};

export default function BookingPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  useSession((s) => s.permission);
  const [verifying, setVerifying] = useState(false);
  const refreshRef = useRef<() => Promise<void>>(async () => {});
  return (
    <>
      <CrudPage
        def={tourismBookingResource}
        fields={fields}
        rowName={(row) => String(row.visitorName ?? row.id)}
        toolbar={(ctx) => {
          refreshRef.current = ctx.refresh;
          return (
            can(`${code}_verify`) && <Button onClick={() => setVerifying(true)}>{t('tourism.verify')}</Button>
          );
        }}
        rowActions={(row, ctx) =>
          String(row.state) === BOOKING_STATE.awaiting &&
          can(`${code}_cancel`) && (
            <Popconfirm
              title={t('tourism.cancelAsk', { name: String(row.visitorName ?? '') })}
              onConfirm={async () => {
                await postData(`${BASE}/cancel`, { id: row.id });
                message.success(t('tourism.cancelled'));
                await ctx.refresh();
              }}
            >
              <Button type="link" size="small">
                {t('tourism.cancelBooking')}
              </Button>
            </Popconfirm>
          )
        }
      />
      {verifying && (
        <VerifyDialog onClose={() => setVerifying(false)} onVerified={() => void refreshRef.current()} />
      )}
    </>
  );
}
