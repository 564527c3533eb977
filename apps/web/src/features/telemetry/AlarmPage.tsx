/**
 * 设备告警: the alarms the server raised (a reading past a threshold, a device silent past its interval),
 * newest first, said in the screen's language; 确认 (acknowledge) and 关闭 (close, with what was done) for
 * whoever holds the screen's handle button. The list refreshes itself: new alarms appear as they are raised.
 */
import './i18n';
import { ALARM_STATE, alarmText, deviceAlarmResource } from '@smart/contracts/telemetry';
import { App, Button, Form, Input, Modal, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudContext, CrudPage, type Row } from '../../platform/crud/CrudPage';
import { postData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';
import { can, useSession } from '../../platform/session/session';
import { showFieldError } from '../work/process/StartForm';
import { useListRefresh } from './LiveState';

const BASE = '/api/dfem-hope-manage/deviceAlarm';
const code = deviceAlarmResource.permission;
const STATE_COLOR: Record<string, string> = {
  [ALARM_STATE.raised]: 'red',
  [ALARM_STATE.acknowledged]: 'orange',
  [ALARM_STATE.closed]: 'default',
};
const REFRESH_MS = 15_000;

function CloseDialog({ row, ctx, onClose }: { row: Row; ctx: CrudContext; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ note: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      await postData(`${BASE}/close`, { id: row.id, note: v.note });
      message.success(t('telemetry.closed'));
      onClose();
      await ctx.refresh();
    } catch (e) {
      showFieldError(form, ['note'], e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open title={t('telemetry.closeTitle')} onOk={submit} confirmLoading={saving} onCancel={onClose}>
      <Form form={form} layout="vertical">
        <Form.Item
          name="note"
          label={t('telemetry.note')}
          rules={[{ required: true, whitespace: true, message: t('telemetry.noteRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function AlarmPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  useSession((s) => s.permission);
  const [closing, setClosing] = useState<{ row: Row; ctx: CrudContext } | null>(null);
  // new alarms appear without a click
  useListRefresh(deviceAlarmResource.key, REFRESH_MS);
  const acknowledge = async (row: Row, ctx: CrudContext) => {
    try {
      await postData(`${BASE}/acknowledge`, { id: row.id });
      message.success(t('telemetry.acknowledged'));
      await ctx.refresh();
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  const handle = can(`${code}_handle`);
  return (
    <>
      <CrudPage
        def={deviceAlarmResource}
        columns={{
          render: {
            state: (_: unknown, row: Row) => (
              <Space size={4}>
                <Tag color={STATE_COLOR[String(row.state)]}>{String(row.stateName ?? row.state)}</Tag>
                {Boolean(row.recoveredAt) && <Tag color="green">{t('telemetry.recovered')}</Tag>}
              </Space>
            ),
          },
          extra: [
            {
              title: t('telemetry.message'),
              key: 'message',
              render: (_: unknown, row: Row) => alarmText(row as Record<string, unknown>, currentLanguage()),
            },
          ],
        }}
        rowActions={(row, ctx) =>
          handle && row.state !== ALARM_STATE.closed ? (
            <Space size={0}>
              {row.state === ALARM_STATE.raised && (
                <Button type="link" size="small" onClick={() => acknowledge(row, ctx)}>
                  {t('telemetry.acknowledge')}
                </Button>
              )}
              <Button type="link" size="small" onClick={() => setClosing({ row, ctx })}>
                {t('common.close')}
              </Button>
            </Space>
          ) : null
        }
      />
      {closing && <CloseDialog row={closing.row} ctx={closing.ctx} onClose={() => setClosing(null)} />}
    </>
  );
}
