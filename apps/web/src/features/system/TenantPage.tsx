/**
 * /system/tenant — tenants (generic page) plus 授权配置 (account quota and expiry), 数据源 and 产品包; the
 * package field of the form picks among the tenant packages.
 */
import './i18n';
import { DatabaseOutlined, GiftOutlined, KeyOutlined } from '@ant-design/icons';
import { tenantResource } from '@smart/contracts/admin';
import { DEFAULT_TENANT_ID, type Page } from '@smart/contracts/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Form, Input, InputNumber, Modal, Select, Spin } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { getData, postData } from '../../platform/http/client';
import { can } from '../../platform/session/session';
import { OneTimePasswords } from './OneTimePasswords';

interface PackageRow {
  id: string;
  packageName: string;
}

function usePackages() {
  return useQuery({
    queryKey: ['tenant-packages'],
    queryFn: () =>
      getData<Page<PackageRow>>('/api/dfem-system/tenant-package/list', { current: 1, size: 200 }),
    staleTime: 10_000,
  });
}

function PackageSelect({
  value,
  onChange,
  id,
  disabled,
  placeholder,
}: {
  value?: unknown;
  onChange?: (v: unknown) => void;
  id?: string;
  disabled?: boolean;
  placeholder: string;
}) {
  const packages = usePackages();
  return (
    <Select
      id={id}
      aria-label={placeholder}
      placeholder={placeholder}
      disabled={disabled}
      allowClear
      loading={packages.isLoading}
      style={{ width: '100%' }}
      value={value ? String(value) : undefined}
      onChange={(v) => onChange?.(v ?? '')}
      options={(packages.data?.records ?? []).map((p) => ({ value: p.id, label: p.packageName }))}
    />
  );
}

/** A package's name (the view dialog). */
function PackageName({ id }: { id: unknown }) {
  const packages = usePackages();
  return <>{packages.data?.records.find((p) => p.id === String(id))?.packageName ?? String(id)}</>;
}

type Action = { kind: 'setting' | 'datasource' | 'package'; rows: Row[] };

function SettingDialog({ rows, onClose, onDone }: { rows: Row[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ accountNumber?: number | null; expireTime?: Dayjs | null }>();
  const [saving, setSaving] = useState(false);
  const one = rows.length === 1 ? rows[0] : undefined;
  const submit = async (v: { accountNumber?: number | null; expireTime?: Dayjs | null }) => {
    setSaving(true);
    try {
      await postData('/api/dfem-system/tenant/setting', undefined, {
        ids: rows.map((r) => r.id).join(','),
        accountNumber: v.accountNumber ?? -1,
        expireTime: v.expireTime ? v.expireTime.format('YYYY-MM-DD HH:mm:ss') : '',
      });
      message.success(t('common.succeeded'));
      onDone();
    } catch (e) {
      console.error(e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`${t('sys.tenant.setting')} · ${rows.map((r) => r.tenantName).join(', ')}`}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving }}
      onOk={() => form.submit()}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          accountNumber: one ? Number(one.accountNumber ?? -1) : -1,
          expireTime: one?.expireTime ? dayjs(String(one.expireTime)) : undefined,
        }}
      >
        <Form.Item
          name="accountNumber"
          label={t('sys.tenant.accountNumber')}
          extra={t('sys.tenant.unlimited')}
        >
          <InputNumber min={-1} max={1_000_000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="expireTime" label={t('sys.tenant.expireTime')} extra={t('sys.tenant.never')}>
          <DatePicker showTime style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function DatasourceDialog({ row, onClose, onDone }: { row: Row; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ datasourceId?: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async (v: { datasourceId?: string }) => {
    setSaving(true);
    try {
      await postData('/api/dfem-system/tenant/datasource', undefined, {
        tenantId: String(row.tenantId),
        datasourceId: v.datasourceId?.trim() ?? '',
      });
      message.success(t('common.succeeded'));
      onDone();
    } catch (e) {
      console.error(e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`${t('sys.tenant.datasource')} · ${String(row.tenantName)}`}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving }}
      onOk={() => form.submit()}
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="datasourceId"
          label={t('sys.tenant.datasourceId')}
          extra={t('sys.tenant.datasourceHint')}
          rules={[{ pattern: /^\d{1,19}$/, message: t('sys.tenant.datasourceInvalid') }]}
        >
          <Input allowClear inputMode="numeric" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function PackageDialog({ row, onClose, onDone }: { row: Row; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const tenantId = String(row.tenantId);
  const current = useQuery({
    queryKey: ['tenant-package-detail', tenantId],
    queryFn: () =>
      getData<PackageRow | null>('/api/dfem-system/tenant/package-detail', { tenantId }).then(
        (p) => p ?? null,
      ),
    gcTime: 0,
    staleTime: 0,
  });
  const [form] = Form.useForm<{ packageId?: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async (v: { packageId?: string }) => {
    setSaving(true);
    try {
      await postData('/api/dfem-system/tenant/package-setting', undefined, {
        tenantId,
        packageId: v.packageId ?? '',
      });
      message.success(t('common.succeeded'));
      onDone();
    } catch (e) {
      console.error(e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`${t('sys.tenant.package')} · ${String(row.tenantName)}`}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, disabled: current.isLoading }}
      onOk={() => form.submit()}
    >
      {current.isLoading ? (
        <Spin />
      ) : (
        <Form form={form} layout="vertical" onFinish={submit} initialValues={{ packageId: current.data?.id }}>
          <Form.Item name="packageId" label={t('sys.tenant.package')} extra={t('sys.tenant.packageHint')}>
            <PackageSelect placeholder={t('sys.tenant.choosePackage')} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

export default function TenantPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [action, setAction] = useState<Action | null>(null);
  /** a new tenant's administrator and its generated password, answered once by the server */
  const [created, setCreated] = useState<{ tenant: string; account: string; password: string } | null>(null);
  const mayEdit = can('tenant_edit');
  const done = () => {
    setAction(null);
    void qc.invalidateQueries({ queryKey: ['crud', tenantResource.key] });
  };
  return (
    <>
      <CrudPage
        def={tenantResource}
        selectable={mayEdit}
        rowName={(row) => String(row.tenantName)}
        fields={{
          packageId: { control: (p) => <PackageSelect {...p} />, view: (v) => <PackageName id={v} /> },
        }}
        afterSave={(mode, saved) => {
          if (mode === 'add' && typeof saved.adminPassword === 'string')
            setCreated({
              tenant: `${saved.tenantName ?? ''} (${saved.tenantId ?? ''})`,
              account: String(saved.adminAccount ?? 'admin'),
              password: saved.adminPassword,
            });
        }}
        columns={{
          render: {
            accountNumber: (v) => (Number(v) < 0 ? t('sys.tenant.unlimitedShort') : String(v ?? '')),
          },
        }}
        toolbar={(ctx) =>
          mayEdit && (
            <Button
              icon={<KeyOutlined aria-hidden />}
              onClick={() =>
                ctx.selectedRows.length
                  ? setAction({ kind: 'setting', rows: ctx.selectedRows })
                  : message.warning(t('common.selectAtLeastOne'))
              }
            >
              {t('sys.tenant.setting')}
            </Button>
          )
        }
        rowActions={(row) =>
          mayEdit && (
            <>
              <Button
                type="link"
                size="small"
                icon={<KeyOutlined aria-hidden />}
                onClick={() => setAction({ kind: 'setting', rows: [row] })}
              >
                {t('sys.tenant.setting')}
              </Button>
              <Button
                type="link"
                size="small"
                icon={<DatabaseOutlined aria-hidden />}
                onClick={() => setAction({ kind: 'datasource', rows: [row] })}
              >
                {t('sys.tenant.datasource')}
              </Button>
              {row.tenantId !== DEFAULT_TENANT_ID && (
                <Button
                  type="link"
                  size="small"
                  icon={<GiftOutlined aria-hidden />}
                  onClick={() => setAction({ kind: 'package', rows: [row] })}
                >
                  {t('sys.tenant.package')}
                </Button>
              )}
            </>
          )
        }
      />
      {action?.kind === 'setting' && (
        <SettingDialog rows={action.rows} onClose={() => setAction(null)} onDone={done} />
      )}
      {action?.kind === 'datasource' && (
        <DatasourceDialog row={action.rows[0]} onClose={() => setAction(null)} onDone={done} />
      )}
      {action?.kind === 'package' && (
        <PackageDialog row={action.rows[0]} onClose={() => setAction(null)} onDone={done} />
      )}
      {created && (
        <OneTimePasswords
          intro={t('sys.once.tenantAdmin', { tenant: created.tenant })}
          issued={[{ account: created.account, password: created.password }]}
          onClose={() => setCreated(null)}
        />
      )}
    </>
  );
}
