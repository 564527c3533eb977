/**
 * Where a deployment applies: every tenant (通用, no tenant ids) or the chosen ones (定制). Used by the
 * model deploy dialog and the upload dialog; the value is the tenant id list ([] = every tenant).
 */

import { DEFAULT_TENANT_ID } from '@smart/contracts/core';
import { placeholderFor } from '@smart/contracts/placeholder';
import { Form, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../platform/i18n';
import { can, useSession } from '../../platform/session/session';
import { useTenants } from './api';

/**
 * Deployments are the platform's: deploying, uploading, suspending and deleting are refused by the server
 * to every other tenant, so their buttons show only to the platform tenant's users who hold the code.
 */
export function canDeploy(code: string): boolean {
  return can(code) && useSession.getState().tenantId === DEFAULT_TENANT_ID;
}

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
            placeholder={placeholderFor(t('wf.tenants'), 'several', currentLanguage())}
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
