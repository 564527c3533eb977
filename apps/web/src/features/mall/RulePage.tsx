/**
 * 积分规则: the generic list of rules, each with its switch (spec §4: `points/rule/switch`), flipped in place
 * by whoever holds the switch button; a switched-off rule credits nothing.
 */
import './i18n';
import { pointsRuleResource } from '@smart/contracts/mall';
import { Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import type { CrudContext, Row } from '../../platform/crud/types';
import { getData } from '../../platform/http/client';
import { can } from '../../platform/session/session';

function RuleSwitch({ row, ctx }: { row: Row; ctx: CrudContext }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const on = Number(row.enabled) === 1;
  return (
    <Switch
      size="small"
      checked={on}
      loading={busy}
      disabled={!can('points_rule_switch')}
      aria-label={`${on ? t('mall.switchOff') : t('mall.switchOn')} ${String(row.ruleName ?? '')}`}
      onChange={async (checked) => {
        setBusy(true);
        try {
          await getData('/api/dfem-hope-manage/points/rule/switch', {
            id: row.id,
            enabled: checked ? '1' : '0',
          });
          await ctx.refresh();
        } catch {
          // shown by the http client
        } finally {
          setBusy(false);
        }
      }}
    />
  );
}

export default function RulePage() {
  return <CrudPage def={pointsRuleResource} rowActions={(row, ctx) => <RuleSwitch row={row} ctx={ctx} />} />;
}
