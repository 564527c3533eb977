/**
 * 设备管理: the devices of the telemetry core (the generic list of `device`), with what their readings say
 * (online, offline or no data; the last report and values), each device's chart in a drawer, and its secret:
 * shown once when the device is added or its secret is reset, with what it needs to connect to the broker
 * (client id and username, connect password) and the MQTT topic it publishes to.
 */
import './i18n';
import { deviceResource, metricByCode } from '@smart/contracts/telemetry';
import { unitIn } from '@smart/contracts/units';
import { Alert, App, Button, Descriptions, Drawer, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { postData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';
import { can, useSession } from '../../platform/session/session';
import { DeviceChart } from './DeviceChart';
import { LiveState, useListRefresh } from './LiveState';

const BASE = '/api/dfem-hope-manage/smartPlant/deviceManage';
const code = deviceResource.permission;

/** the last values, `空气温度 21.3 ℃ · 空气湿度 60 %` */
function LastValues({ values }: { values: unknown }) {
  if (!values || typeof values !== 'object') return null;
  const en = currentLanguage() === 'en';
  const parts = Object.entries(values as Record<string, number>)
    .slice(0, 4)
    .map(([k, v]) => {
      const m = metricByCode.get(k);
      return m
        ? `${en ? m.label.en : m.label.zh} ${Number(v).toFixed(m.digits)} ${unitIn(en ? 'en' : 'zh', m.unit)}`
        : null;
    })
    .filter(Boolean);
  // one reading a line: the column stays as narrow as its longest reading
  return (
    <span style={{ display: 'inline-flex', flexDirection: 'column', whiteSpace: 'nowrap' }}>
      {parts.map((p) => (
        <span key={p}>{p}</span>
      ))}
    </span>
  );
}

/** what a device needs to connect to the embedded broker (answered once, beside its secret) */
interface Connect {
  clientId: string;
  username: string;
  password: string;
  topic: string;
}

interface Shown {
  serial: string;
  kind: string;
  secret: string;
  connect?: Connect;
}

function SecretDialog({ shown, onClose }: { shown: Shown; onClose: () => void }) {
  const { t } = useTranslation();
  const tenantId = useSession((s) => s.tenantId);
  const topic = shown.connect?.topic ?? `${tenantId}/${shown.kind}/${shown.serial}/up`;
  const line = (label: string, value: string, testId: string) => (
    <Descriptions.Item label={label}>
      <Typography.Text copyable={{ text: value }} code data-testid={testId}>
        {value}
      </Typography.Text>
    </Descriptions.Item>
  );
  return (
    <Modal
      open
      width={640}
      title={t('telemetry.secretTitle')}
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ hidden: true }}
    >
      <Alert type="warning" showIcon message={t('telemetry.secretHint')} style={{ marginBottom: 12 }} />
      <Typography.Paragraph copyable={{ text: shown.secret }} code data-testid="device-secret">
        {shown.secret}
      </Typography.Paragraph>
      {shown.connect && (
        <Descriptions column={1} size="small" bordered title={t('telemetry.connectTitle')}>
          {line(t('telemetry.connectClientId'), shown.connect.clientId, 'device-client-id')}
          {line(t('telemetry.connectPassword'), shown.connect.password, 'device-connect-password')}
        </Descriptions>
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {t('telemetry.secretTopic', { topic })}
      </Typography.Paragraph>
    </Modal>
  );
}

export default function DevicePage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  useSession((s) => s.permission);
  // the live state moves as readings arrive (and stop)
  useListRefresh(deviceResource.key, 15_000);
  const [chartOf, setChartOf] = useState<Row | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const reset = async (row: Row) => {
    try {
      const r = await postData<{ secret: string; connect?: Connect }>(`${BASE}/secret`, { id: row.id });
      setShown({ serial: String(row.serial), kind: String(row.kind), secret: r.secret, connect: r.connect });
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  return (
    <>
      <CrudPage
        def={deviceResource}
        columns={{
          extra: [
            {
              title: t('common.status'),
              key: 'live',
              render: (_: unknown, row: Row) => <LiveState online={row.online} lastSeenAt={row.lastSeenAt} />,
            },
            { title: t('telemetry.lastSeen'), key: 'lastSeenAt', dataIndex: 'lastSeenAt' },
            {
              title: t('telemetry.lastValues'),
              key: 'lastValues',
              render: (_: unknown, row: Row) => <LastValues values={row.lastValues} />,
            },
          ],
        }}
        afterSave={(mode, saved) => {
          if (mode === 'add' && saved.secret)
            setShown({
              serial: String(saved.serial),
              kind: String(saved.kind),
              secret: String(saved.secret),
              connect: saved.connect as Connect | undefined,
            });
        }}
        rowActions={(row) => (
          <Button type="link" size="small" onClick={() => setChartOf(row)}>
            {t('telemetry.chart')}
          </Button>
        )}
        // a secondary action: with 删除 in the row's 更多 menu, asked once more before it is done
        moreActions={(row) =>
          can(`${code}_edit`)
            ? [
                {
                  key: 'reset',
                  label: t('telemetry.resetSecret'),
                  danger: true,
                  onClick: () =>
                    modal.confirm({ title: t('telemetry.resetConfirm'), onOk: () => reset(row) }),
                },
              ]
            : []
        }
      />
      <Drawer
        open={Boolean(chartOf)}
        width={Math.min(900, window.innerWidth)}
        title={chartOf ? t('telemetry.chartOf', { name: String(chartOf.name) }) : ''}
        onClose={() => setChartOf(null)}
        destroyOnHidden
      >
        {chartOf && (
          <DeviceChart
            deviceId={String(chartOf.id)}
            kind={String(chartOf.kind)}
            name={String(chartOf.name)}
            serial={String(chartOf.serial)}
            thresholds={chartOf.thresholds as string | null}
          />
        )}
      </Drawer>
      {shown && <SecretDialog shown={shown} onClose={() => setShown(null)} />}
    </>
  );
}
