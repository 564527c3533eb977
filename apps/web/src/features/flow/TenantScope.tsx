/**
 * Where a deployment applies: every tenant (通用, no tenant ids) or the chosen ones (定制). Used by the
 * model deploy dialog and the upload dialog; the value is the tenant id list ([] = every tenant).
 */
import { Form, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTenants } from './api';

export type ScopeMode = 'all' | 'chosen';

export function TenantScopeFields() {
  const { t } = useTranslation();
  const mode = Form.useWatch('scope') as ScopeMode | undefined;
  const tenants = useTenants(mode === 'chosen');
  return (
    <>
      <Form.Item name="scope" label={t('wf.scope')} initialValue="all">
        <Radio.Group
          options={[
            { value: 'all', label: t('wf.scopeAll') },
            { value: 'chosen', label: t('wf.scopeChosen') },
          ]}
        />
      </Form.Item>
      {mode === 'chosen' && (
        <Form.Item
          name="tenantIds"
          label={t('wf.tenants')}
          rules={[{ required: true, type: 'array', min: 1, message: t('wf.tenantsRequired') }]}
        >
          <Select
            mode="multiple"
            aria-label={t('wf.tenants')}
            placeholder={t('wf.pleaseSelect', { label: t('wf.tenants') })}
            loading={tenants.isLoading}
            optionFilterProp="label"
            options={(tenants.data ?? []).map((x) => ({
              value: x.tenantId,
              label: `${x.tenantName} (${x.tenantId})`,
            }))}
          />
        </Form.Item>
      )}
    </>
  );
}

/** The tenant ids a scope form sends. */
export function tenantIdsOf(values: { scope?: ScopeMode; tenantIds?: string[] }): string[] {
  return values.scope === 'chosen' ? (values.tenantIds ?? []) : [];
}
