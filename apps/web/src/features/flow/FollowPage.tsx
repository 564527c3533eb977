/**
 * /flow/follow — running process instances: their diagram (history highlighted) and 删除 with a required
 * reason (follow/delete-process-instance).
 */
import './i18n';
import { ApartmentOutlined, DeleteOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { postData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';
import { FLOW_API, type InstanceRow } from './api';
import { useFlowDiagram } from './diagram';
import { PagedList, useRefreshFlowLists } from './PagedList';

function DeleteDialog({ row, onClose }: { row: InstanceRow; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const refresh = useRefreshFlowLists();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const submit = async ({ reason }: { reason: string }) => {
    setBusy(true);
    try {
      await postData(`${FLOW_API}/follow/delete-process-instance`, undefined, {
        processInstanceId: row.processInstanceId,
        deleteReason: reason.trim(),
      });
      message.success(t('common.deleted'));
      // the dialog's work is done: close it now, the lists follow
      onClose();
      void refresh();
    } catch {
      /* the client's toast shows why */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('wf.follow.deleteTitle')}
      onCancel={onClose}
      okText={t('common.delete')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true, loading: busy }}
      onOk={() => form.submit()}
      destroyOnHidden
      maskClosable={false}
    >
      <Typography.Paragraph>
        {t('wf.follow.deleteWhat', { name: row.processDefinitionName, id: row.processInstanceId })}
      </Typography.Paragraph>
      <Form form={form} name="flowDeleteInstance" layout="vertical" onFinish={submit}>
        <Form.Item
          name="reason"
          label={t('wf.follow.reason')}
          rules={[
            { required: true, whitespace: true, message: t('wf.follow.reasonRequired') },
            { max: 500, message: t('wf.maxLength', { max: 500 }) },
          ]}
        >
          <Input.TextArea rows={3} showCount maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function FollowPage() {
  const { t } = useTranslation();
  useSession((s) => s.permission);
  const diagram = useFlowDiagram();
  const [deleting, setDeleting] = useState<InstanceRow | null>(null);
  return (
    <>
      <PagedList<InstanceRow>
        title={t('wf.follow.title')}
        url={`${FLOW_API}/follow/list`}
        rowKey={(r) => r.processInstanceId}
        rowName={(r) => `${r.processDefinitionName} ${r.processInstanceId}`}
        search={[
          { name: 'processDefinitionKey', label: t('wf.processKey') },
          { name: 'processInstanceId', label: t('wf.instanceId') },
        ]}
        columns={[
          { key: 'name', dataIndex: 'processDefinitionName', title: t('wf.processName') },
          { key: 'key', dataIndex: 'processDefinitionKey', title: t('wf.processKey') },
          { key: 'categoryName', dataIndex: 'categoryName', title: t('wf.category') },
          { key: 'instance', dataIndex: 'processInstanceId', title: t('wf.instanceId') },
          { key: 'starter', dataIndex: 'startUserName', title: t('wf.starter') },
          { key: 'createTime', dataIndex: 'createTime', title: t('wf.startTime'), width: 170 },
        ]}
        actions={(row) => (
          <>
            <Button
              type="link"
              size="small"
              icon={<ApartmentOutlined />}
              onClick={() =>
                diagram.open({ processInstanceId: row.processInstanceId }, row.processDefinitionName)
              }
            >
              {t('flow.diagram')}
            </Button>
            {can('flow_follow_delete') && (
              <Button
                type="link"
                size="small"
                danger
                icon={<DeleteOutlined />}
                onClick={() => setDeleting(row)}
              >
                {t('common.delete')}
              </Button>
            )}
          </>
        )}
      />
      {deleting && <DeleteDialog row={deleting} onClose={() => setDeleting(null)} />}
      {diagram.element}
    </>
  );
}
