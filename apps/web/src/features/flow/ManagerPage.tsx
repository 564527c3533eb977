/**
 * /flow/manager — deployed process definitions, filtered by mode (通用 / 定制), key and category, with
 * version, state and deployment time; 挂起 / 激活 (confirmed), 部署上传 (BPMN files, multipart:
 * category, tenantIds, files; the server's refusal reason is shown in the dialog), 删除 (a deployment with
 * running instances is refused with the server's reason, then offered as a cascade) and the definition's
 * diagram.
 */

import { placeholderFor } from '@smart/contracts/placeholder';
import { currentLanguage } from '../../platform/i18n';
import './i18n';
import {
  ApartmentOutlined,
  DeleteOutlined,
  InboxOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { Alert, App, Button, Form, Modal, Tag, Tooltip, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError, postData, request } from '../../platform/http/client';
import { useSession } from '../../platform/session/session';
import { type DefinitionRow, FLOW_API } from './api';
import { useFlowDiagram } from './diagram';
import { CategorySelect, PagedList, useRefreshFlowLists } from './PagedList';
import { canDeploy, type ScopeMode, TenantScopeFields, tenantIdsOf } from './TenantScope';

function UploadDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const refresh = useRefreshFlowLists();
  const [form] = Form.useForm();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState('');

  const submit = async (values: { category: string; scope: ScopeMode; tenantIds?: string[] }) => {
    setRefusal('');
    const body = new FormData();
    body.append('category', values.category);
    body.append('tenantIds', tenantIdsOf(values).join(','));
    for (const f of files) if (f.originFileObj) body.append('files', f.originFileObj, f.name);
    setBusy(true);
    try {
      await request(`${FLOW_API}/manager/deploy-upload`, { method: 'POST', body, silent: true });
      message.success(t('wf.deployed'));
      // the dialog's work is done: close it now, the lists follow
      onClose();
      void refresh();
    } catch (e) {
      setRefusal((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t('wf.manager.uploadTitle')}
      onCancel={onClose}
      okText={t('wf.manager.uploadOk')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: busy }}
      onOk={() => form.submit()}
      destroyOnHidden
      maskClosable={false}
    >
      <Form
        form={form}
        name="flowUpload"
        layout="vertical"
        onFinish={submit}
        initialValues={{ scope: 'all' }}
      >
        <Form.Item
          name="category"
          label={t('wf.category')}
          rules={[{ required: true, message: t('wf.categoryRequired') }]}
        >
          <CategorySelect
            aria-label={t('wf.category')}
            placeholder={placeholderFor(t('wf.category'), 'one', currentLanguage())}
          />
        </Form.Item>
        <TenantScopeFields />
        <Form.Item
          name="files"
          label={t('wf.manager.files')}
          rules={[
            {
              validator: async () => {
                if (!files.length) throw new Error(t('wf.manager.filesRequired'));
              },
            },
          ]}
        >
          <Upload.Dragger
            multiple
            accept=".bpmn,.xml"
            fileList={files}
            beforeUpload={() => false}
            onChange={({ fileList }) => {
              setFiles(fileList);
              setRefusal('');
              void form.validateFields(['files']).catch(() => {});
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{t('wf.manager.filesHint')}</p>
            <p className="ant-upload-hint">{t('wf.manager.filesFormats')}</p>
          </Upload.Dragger>
        </Form.Item>
      </Form>
      {refusal && (
        <Alert type="error" showIcon role="alert" title={t('wf.manager.refused')} description={refusal} />
      )}
    </Modal>
  );
}

export default function ManagerPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  useSession((s) => s.permission);
  const refresh = useRefreshFlowLists();
  const diagram = useFlowDiagram();
  const [uploading, setUploading] = useState(false);

  const changeState = (row: DefinitionRow) => {
    const next = row.state === 'active' ? 'suspend' : 'active';
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t(next === 'suspend' ? 'wf.manager.confirmSuspend' : 'wf.manager.confirmActivate', {
        name: `${row.name} v${row.version}`,
      }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await postData(`${FLOW_API}/manager/change-state`, undefined, {
          processId: row.processDefinitionId,
          state: next,
        });
        message.success(t(next === 'suspend' ? 'wf.manager.suspended' : 'wf.manager.activated'));
        await refresh();
      },
    });
  };

  const removeDeployment = async (row: DefinitionRow, cascade: boolean) => {
    await postData(
      `${FLOW_API}/manager/delete-deployment`,
      undefined,
      {
        deploymentIds: row.deploymentId,
        ...(cascade ? { cascade: 'true' } : {}),
      },
      { silent: !cascade },
    );
    message.success(t('common.deleted'));
    await refresh();
  };

  const remove = (row: DefinitionRow) =>
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t('wf.manager.confirmDelete', { name: `${row.name} v${row.version}` }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await removeDeployment(row, false);
        } catch (e) {
          // refused while instances run: say why (the server's words) and offer to end them too
          if (e instanceof HttpError && e.code === 400) {
            modal.confirm({
              title: t('wf.manager.cascadeTitle'),
              content: e.message,
              okText: t('wf.manager.cascadeOk'),
              cancelText: t('common.cancel'),
              okButtonProps: { danger: true },
              onOk: () => removeDeployment(row, true),
            });
          } else {
            message.error((e as Error).message);
          }
        }
      },
    });

  return (
    <>
      <PagedList<DefinitionRow>
        title={t('wf.manager.title')}
        url={`${FLOW_API}/manager/list`}
        rowKey={(r) => r.processDefinitionId}
        rowName={(r) => `${r.name} v${r.version}`}
        search={[
          {
            name: 'mode',
            label: t('wf.manager.mode'),
            kind: 'select',
            options: [
              { value: '1', label: t('wf.scopeAll') },
              { value: '2', label: t('wf.scopeChosen') },
            ],
          },
          { name: 'processKey', label: t('wf.processKey') },
          { name: 'category', label: t('wf.category'), kind: 'category' },
        ]}
        toolbar={
          canDeploy('flow_manager_upload') && (
            <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)}>
              {t('wf.manager.upload')}
            </Button>
          )
        }
        columns={[
          {
            key: 'mode',
            dataIndex: 'tenantIds',
            title: t('wf.manager.mode'),
            render: (v: string) =>
              v ? (
                <Tooltip title={v}>
                  <Tag color="purple">{t('wf.scopeChosen')}</Tag>
                </Tooltip>
              ) : (
                <Tag>{t('wf.scopeAll')}</Tag>
              ),
          },
          { key: 'key', dataIndex: 'key', title: t('wf.processKey') },
          { key: 'name', dataIndex: 'name', title: t('wf.processName') },
          { key: 'version', dataIndex: 'version', title: t('wf.version'), render: (v: number) => `v${v}` },
          { key: 'categoryName', dataIndex: 'categoryName', title: t('wf.category') },
          {
            key: 'state',
            dataIndex: 'state',
            title: t('common.status'),
            render: (v: string) =>
              v === 'active' ? (
                <Tag color="success">{t('wf.manager.active')}</Tag>
              ) : (
                <Tag color="warning">{t('wf.manager.suspend')}</Tag>
              ),
          },
          {
            key: 'deploymentTime',
            dataIndex: 'deploymentTime',
            title: t('wf.manager.deploymentTime'),
            width: 170,
          },
        ]}
        actions={(row) => (
          <>
            <Button
              type="link"
              size="small"
              icon={<ApartmentOutlined />}
              onClick={() =>
                diagram.open({ processDefinitionId: row.processDefinitionId }, `${row.name} v${row.version}`)
              }
            >
              {t('flow.diagram')}
            </Button>
            {canDeploy('flow_manager_state') && (
              <Button
                type="link"
                size="small"
                icon={row.state === 'active' ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
                onClick={() => changeState(row)}
              >
                {t(row.state === 'active' ? 'wf.manager.doSuspend' : 'wf.manager.doActivate')}
              </Button>
            )}
            {canDeploy('flow_manager_delete') && (
              <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => remove(row)}>
                {t('common.delete')}
              </Button>
            )}
          </>
        )}
      />
      {uploading && <UploadDialog onClose={() => setUploading(false)} />}
      {diagram.element}
    </>
  );
}
