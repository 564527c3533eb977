/**
 * The debug log (spec §2, §8): the client errors collected in this browser, fullscreen, with clear and
 * send-to-server (POST /api/dfem-log/error/report, at most 100 entries at a time).
 */
import { App, Button, Modal, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { postData } from '../../../platform/http/client';
import { type ClientErrorEntry, clearErrorLog, useErrorLog } from '../../../platform/session/errorLog';
import { WEBSITE } from '../../../platform/session/website';
import { closeDialog } from '../ui';

/** The server's limits per field. */
const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

export function reportBody(logs: ClientErrorEntry[]) {
  return {
    logs: logs.slice(0, WEBSITE.errorReportMax).map((e) => ({
      type: clip(e.type, 255),
      message: clip(e.message, 2000),
      stack: clip(e.stack, 10_000),
      info: clip(e.info, 255),
      url: clip(e.url, 1000),
      time: clip(e.time, 64),
    })),
  };
}

export default function ErrorLogDialog() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const logs = useErrorLog((s) => s.logs);
  const [sending, setSending] = useState(false);

  const send = async () => {
    setSending(true);
    try {
      const body = reportBody(logs);
      await postData('/api/dfem-log/error/report', body);
      message.success(t('log.sent', { count: body.logs.length }));
    } catch {
      /* the client showed the server's message */
    } finally {
      setSending(false);
    }
  };

  const clear = () =>
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t('log.clearConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => clearErrorLog(),
    });

  const pre = (text: string) => (
    <pre style={{ margin: 0, maxHeight: 160, overflow: 'auto', whiteSpace: 'pre-wrap', fontSize: 12 }}>
      {text}
    </pre>
  );
  const columns: ColumnsType<ClientErrorEntry & { key: number }> = [
    { key: 'type', dataIndex: 'type', title: t('log.type'), width: 150 },
    { key: 'message', dataIndex: 'message', title: t('log.message'), width: 260 },
    { key: 'stack', dataIndex: 'stack', title: t('log.stack'), render: pre },
    { key: 'info', dataIndex: 'info', title: t('log.info'), width: 200 },
    { key: 'url', dataIndex: 'url', title: t('log.url'), width: 220, ellipsis: true },
    { key: 'time', dataIndex: 'time', title: t('common.time'), width: 170 },
  ];

  return (
    <Modal
      open
      title={t('log.title')}
      // fullscreen (spec §2): the whole viewport, no margins or rounded corners; the list scrolls inside
      width="100vw"
      style={{ top: 0, margin: 0, maxWidth: '100vw', paddingBottom: 0 }}
      styles={{
        container: { height: '100vh', borderRadius: 0, display: 'flex', flexDirection: 'column' },
        body: { flex: 1, minHeight: 0, overflow: 'auto' },
      }}
      footer={null}
      onCancel={closeDialog}
      destroyOnHidden
    >
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" loading={sending} disabled={!logs.length} onClick={() => void send()}>
          {t('log.send')}
        </Button>
        <Button danger disabled={!logs.length} onClick={clear}>
          {t('log.clear')}
        </Button>
      </Space>
      <Table
        size="small"
        rowKey="key"
        columns={columns}
        dataSource={logs.map((log, key) => ({ ...log, key }))}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        locale={{ emptyText: t('log.empty') }}
        scroll={{ x: 1200 }}
      />
    </Modal>
  );
}
