/**
 * 核销 — what the points mall's exchanges and the tourism bookings share: a dialog whose code input has the
 * focus when it opens, so a USB scanner's code and its Enter verify at once (a clerk may type it too); the
 * outcome (what was handed over, or why not) is read out and stays until the next code; the input is
 * emptied and focused again for the next one. And the code with its QR image, asked of the server for
 * one row (`{ code, image }`: the image a PNG data URL).
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Input, type InputRef, Modal, Space, Spin, Typography } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { Row } from '../crud/types';
import { getData, HttpError, postData } from '../http/client';

type Outcome = { ok: true; row: Row } | { ok: false; message: string };

export interface VerifyTexts {
  title: string;
  label: string;
  hint: string;
  verify: string;
  done: string;
}

export function VerifyDialog(props: {
  /** POST `{ code }`, answering the verified row */
  url: string;
  id: string;
  texts: VerifyTexts;
  /** what the verified row hands over (村民 领取 商品 × 1; 3 人, the slot) */
  describe: (row: Row) => ReactNode;
  onClose: () => void;
  onVerified: () => void;
}) {
  const { texts } = props;
  const input = useRef<InputRef>(null);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  useEffect(() => {
    // after the dialog's own focus handling, which would otherwise keep the focus on itself
    const id = window.setTimeout(() => input.current?.focus(), 50);
    return () => window.clearTimeout(id);
  }, []);
  const send = async () => {
    const typed = value.trim();
    if (!typed || busy) return;
    setBusy(true);
    try {
      const row = await postData<Row>(props.url, { code: typed }, undefined, { silent: true });
      setOutcome({ ok: true, row });
      props.onVerified();
    } catch (e) {
      setOutcome({ ok: false, message: e instanceof HttpError ? e.message : String(e) });
    } finally {
      setValue('');
      setBusy(false);
      input.current?.focus();
    }
  };
  return (
    <Modal open title={texts.title} onCancel={props.onClose} footer={null} destroyOnHidden>
      <label htmlFor={props.id}>{texts.label}</label>
      <Input.Search
        id={props.id}
        ref={input}
        autoFocus
        autoComplete="off"
        spellCheck={false}
        maxLength={64}
        value={value}
        placeholder={texts.hint}
        enterButton={texts.verify}
        loading={busy}
        onChange={(e) => setValue(e.target.value)}
        onSearch={send}
        style={{ margin: '8px 0 16px', fontFamily: 'ui-monospace, monospace' }}
      />
      <div aria-live="polite" data-testid="verify-outcome">
        {outcome?.ok && (
          <Alert type="success" showIcon title={texts.done} description={props.describe(outcome.row)} />
        )}
        {outcome && !outcome.ok && <Alert type="error" showIcon title={outcome.message} />}
      </div>
    </Modal>
  );
}

/** A row's redemption code and its QR image. */
export function CodeQr(props: {
  url: string;
  rowId: string;
  alt: (code: string) => string;
  loading: string;
  size?: number;
}) {
  const size = props.size ?? 160;
  const qr = useQuery({
    queryKey: ['redeem', 'qr', props.url, props.rowId],
    queryFn: () => getData<{ code: string; image: string }>(props.url, { id: props.rowId }),
    staleTime: 60_000,
  });
  if (!qr.data) return qr.isLoading ? <Spin size="small" aria-label={props.loading} /> : null;
  return (
    <Space direction="vertical" size={4} align="center">
      <img
        src={qr.data.image}
        alt={props.alt(qr.data.code)}
        width={size}
        height={size}
        data-testid="redeem-qr"
      />
      <Typography.Text copyable strong style={{ fontFamily: 'ui-monospace, monospace', letterSpacing: 2 }}>
        {qr.data.code}
      </Typography.Text>
    </Space>
  );
}
