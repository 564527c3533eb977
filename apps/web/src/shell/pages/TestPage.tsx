/**
 * /test/index — the developers' test page: the flow diagram dialog on a sample process, and a check that
 * many requests at once share one token refresh (each goes through the one http client).
 */
import '../layout/i18n';
import { Button, Card, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData } from '../../platform/http/client';
import FlowDiagramDialog from '../flow/FlowDiagramDialog';
import { SAMPLE_PROCESS_FLOW, SAMPLE_PROCESS_XML } from './sampleProcess';

const BURST = 10;

export default function TestPage() {
  const { t } = useTranslation();
  const [flowOpen, setFlowOpen] = useState(false);
  const [burst, setBurst] = useState<{ running: boolean; ok: number; failed: number } | null>(null);

  const runBurst = async () => {
    setBurst({ running: true, ok: 0, failed: 0 });
    const results = await Promise.allSettled(
      Array.from({ length: BURST }, () =>
        getData('/api/dfem-auth/oauth/user-info', undefined, { silent: true }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    setBurst({ running: false, ok, failed: BURST - ok });
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <h1 style={{ fontSize: 20, margin: 0 }}>{t('route.test')}</h1>
      <Card size="small" title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('flow.title')}</h2>}>
        <p style={{ marginTop: 0 }}>{t('testPage.flowDemo')}</p>
        <Button type="primary" onClick={() => setFlowOpen(true)}>
          {t('testPage.showFlow')}
        </Button>
      </Card>
      <Card size="small" title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('testPage.burstTitle')}</h2>}>
        <p style={{ marginTop: 0 }}>{t('testPage.burstDemo', { count: BURST })}</p>
        <Space>
          <Button onClick={() => void runBurst()} loading={burst?.running}>
            {t('testPage.burst', { count: BURST })}
          </Button>
          {burst && !burst.running && (
            <output aria-live="polite">{t('testPage.burstResult', { ok: burst.ok, total: BURST })}</output>
          )}
        </Space>
      </Card>
      <FlowDiagramDialog
        open={flowOpen}
        onClose={() => setFlowOpen(false)}
        xml={SAMPLE_PROCESS_XML}
        flow={SAMPLE_PROCESS_FLOW}
      />
    </div>
  );
}
