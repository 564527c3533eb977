/**
 * 预约记录: the bookings' list (the generic page) with 核销 — a dialog whose code input has the focus, so a
 * USB scanner's code and Enter verify at once, the result shown in the dialog —, 取消预约 on a booking
 * awaiting its visit (its places go back to the slot), and the booking's QR code in its view.
 */
import './i18n';
import { BOOKING_STATE, tourismBookingResource } from '@smart/contracts/tourism';
import { App, Button, Popconfirm } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type FieldOverride, type Row } from '../../platform/crud/CrudPage';
import { postData } from '../../platform/http/client';
import { CodeQr, VerifyDialog } from '../../platform/redeem/VerifyDialog';
import { can, useSession } from '../../platform/session/session';

const BASE = '/api/dfem-hope-manage/tourismBooking';
const code = tourismBookingResource.permission;

function BookingQr({ row }: { row: Row }) {
  const { t } = useTranslation();
  return (
    <CodeQr
      url={`${BASE}/qr`}
      rowId={String(row.id)}
      alt={(c) => t('tourism.qrOf', { code: c })}
      loading={t('tourism.qrLoading')}
    />
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
        <VerifyDialog
          url={`${BASE}/verify`}
          id="tourism-verify-code"
          texts={{
            title: t('tourism.verifyTitle'),
            label: t('tourism.verifyCode'),
            hint: t('tourism.verifyHint'),
            verify: t('tourism.verify'),
            done: t('tourism.verifyDone'),
          }}
          describe={(row) =>
            t('tourism.verifyOf', {
              name: String(row.visitorName ?? ''),
              people: Number(row.people ?? 0),
              slot: String(row.slotName ?? ''),
            })
          }
          onClose={() => setVerifying(false)}
          onVerified={() => void refreshRef.current()}
        />
      )}
    </>
  );
}
