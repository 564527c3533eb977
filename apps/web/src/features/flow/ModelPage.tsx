/**
 * /flow/model — process models: searched by name or key; 新增 / 编辑 open the designer (bpmn-js, loaded
 * only then); 部署 deploys a model for every tenant (通用) or the chosen ones (定制) under a category of
 * the `flow` dictionary; 删除 asks first.
 */

import { placeholderFor } from '@smart/contracts/placeholder';
import { currentLanguage } from '../../platform/i18n';
import './i18n';
import { CloudUploadOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Form, Modal, Spin } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DictLabel } from '../../platform/crud/fields';
import { postData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';
import { FLOW_API, type ModelRow } from './api';
import { CategorySelect, PagedList, useRefreshFlowLists } from './PagedList';
import { canDeploy, type ScopeMode, TenantScopeFields, tenantIdsOf } from './TenantScope';

const ModelDesigner = lazy(() => import('./designer/ModelDesigner'));

function DeployDialog({ model, onClose }: { model: ModelRow; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const refresh = useRefreshFlowLists();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const submit = async (values: { category: string; scope: ScopeMode; tenantIds?: string[] }) => {
    setBusy(true);
    try {
      await postData(`${FLOW_API}/model/deploy`, {
        modelId: model.id,
        category: values.category,
        tenantIds: tenantIdsOf(values),
      });
      message.success(t('wf.deployed'));
      // the dialog's work is done: close it now, the lists follow
      onClose();
      void refresh();
    } catch {
      /* the client's toast shows the server's reason */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('wf.model.deployTitle', { name: model.name })}
      onCancel={onClose}
      okText={t('wf.model.deploy')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: busy }}
      onOk={() => form.submit()}
      destroyOnHidden
      maskClosable={false}
    >
      <Form
        form={form}
        name="flowDeploy"
        layout="vertical"
        onFinish={submit}
        initialValues={{ category: model.category ?? undefined, scope: 'all' }}
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
      </Form>
    </Modal>
  );
}

export default function ModelPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  useSession((s) => s.permission);
  const refresh = useRefreshFlowLists();
  const [designer, setDesigner] = useState<{ id?: string } | null>(null);
  const [deploying, setDeploying] = useState<ModelRow | null>(null);

  const remove = (row: ModelRow) =>
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t('wf.model.confirmDelete', { name: row.name }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await postData(`${FLOW_API}/model/remove`, undefined, { ids: row.id });
        message.success(t('common.deleted'));
        await refresh();
      },
    });

  return (
    <>
      <PagedList<ModelRow>
        title={t('wf.model.title')}
        url={`${FLOW_API}/model/list`}
        rowKey={(r) => r.id}
        rowName={(r) => r.name}
        search={[
          { name: 'name', label: t('wf.model.name') },
          { name: 'modelKey', label: t('wf.model.modelKey') },
        ]}
        toolbar={
          can('flow_model_add') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDesigner({})}>
              {t('common.add')}
            </Button>
          )
        }
        columns={[
          { key: 'modelKey', dataIndex: 'modelKey', title: t('wf.model.modelKey') },
          { key: 'name', dataIndex: 'name', title: t('wf.model.name') },
          {
            key: 'category',
            dataIndex: 'category',
            title: t('wf.category'),
            render: (v: string | null) => <DictLabel code="flow" value={v} />,
          },
          {
            key: 'version',
            dataIndex: 'version',
            title: t('wf.model.version'),
            render: (v: number) => `v${v}`,
          },
          {
            key: 'description',
            dataIndex: 'description',
            title: t('wf.model.description'),
            ellipsis: true,
          },
          { key: 'updateTime', dataIndex: 'updateTime', title: t('wf.updateTime'), width: 170 },
        ]}
        actions={(row) => (
          <>
            {can('flow_model_edit') && (
              <Button
                type="link"
                size="small"
                icon={<EditOutlined />}
                onClick={() => setDesigner({ id: row.id })}
              >
                {t('common.edit')}
              </Button>
            )}
            {canDeploy('flow_model_deploy') && (
              <Button
                type="link"
                size="small"
                icon={<CloudUploadOutlined />}
                onClick={() => setDeploying(row)}
              >
                {t('wf.model.deploy')}
              </Button>
            )}
            {can('flow_model_delete') && (
              <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => remove(row)}>
                {t('common.delete')}
              </Button>
            )}
          </>
        )}
      />
      {designer && (
        <Suspense
          fallback={
            <Modal open footer={null} closable={false} title={t('wf.designer.loading')}>
              <Spin />
            </Modal>
          }
        >
          <ModelDesigner
            modelId={designer.id}
            onClose={() => setDesigner(null)}
            onSaved={() => {
              setDesigner(null);
              void refresh();
            }}
          />
        </Suspense>
      )}
      {deploying && <DeployDialog model={deploying} onClose={() => setDeploying(null)} />}
    </>
  );
}
