/**
 * 数据源管理: the generic list, and per row 测试连接 (`datasource_test`): the server connects with the
 * source's settings and answers its version, or the driver's own code and message (at most 5 tests a minute).
 */
import './i18n';
import { datasourceResource } from '@smart/contracts/develop';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { postData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';

const BASE = `/api/${datasourceResource.service}/${datasourceResource.path}`;
const TEST_CODE = `${datasourceResource.permission}_test`;

interface Probe {
  ok: boolean;
  version: string | null;
  ms: number;
  code: string | null;
  message: string | null;
}

function TestAction({ row }: { row: Row }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const test = async () => {
    setBusy(true);
    try {
      const r = await postData<Probe>(`${BASE}/test`, { id: row.id });
      if (r.ok) message.success(t('develop.testPassed', { ms: r.ms, version: r.version ?? '' }));
      else message.error(t('develop.testFailed', { code: r.code ?? '', message: r.message ?? '' }));
    } catch {
      // the http client has shown what went wrong
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      type="link"
      size="small"
      loading={busy}
      onClick={test}
      aria-label={`${t('develop.test')} ${row.name}`}
    >
      {t('develop.test')}
    </Button>
  );
}

export default function DatasourcePage() {
  useSession((s) => s.permission); // re-render when grants change
  return (
    <CrudPage
      def={datasourceResource}
      rowName={(row) => String(row.name ?? '')}
      rowActions={(row) => (can(TEST_CODE) ? <TestAction row={row} /> : null)}
    />
  );
}
