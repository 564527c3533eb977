/**
 * 对象存储: the generic list of storage configs with whether each is enabled, and per row 启用 (POST
 * oss/enable: this one becomes the tenant's only enabled config, after a confirmation) for whoever holds
 * `oss_enable`, and 测试 (POST oss/test) for whoever holds `oss_test`: a dialog with the four steps of a
 * probe object — put, head, get, delete — each passed or failed with the provider's own code and message.
 */
import './i18n';
import {
  OSS_TEST_STEP_LABELS,
  type OssTestResult,
  type OssTestStepResult,
  ossResource,
} from '@smart/contracts/storage';
import { Alert, Button, Modal, Space, Spin, Steps, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { postData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';
import { can, useSession } from '../../platform/session/session';
import { EnableAction, EnabledTag } from './EnableAction';

const BASE = `/api/${ossResource.service}/${ossResource.path}`;
const ENABLE_CODE = `${ossResource.permission}_enable`;
const TEST_CODE = `${ossResource.permission}_test`;
const nameOf = (row: Row) => String(row.ossCode ?? '');
const isEnabled = (row: Row) => Number(row.enabled) === 1;

function StepDetail({ step }: { step: OssTestStepResult }) {
  const { t } = useTranslation();
  if (step.ok)
    return <Typography.Text type="success">{t('resource.stepPassed', { ms: step.ms })}</Typography.Text>;
  if (step.code === 'Skipped')
    return <Typography.Text type="secondary">{t('resource.stepSkipped')}</Typography.Text>;
  return (
    <Space direction="vertical" size={0}>
      <Typography.Text type="danger" data-testid={`oss-step-code-${step.step}`}>
        {t('resource.providerCode')}: {step.code}
        {step.status !== null && ` · ${t('resource.httpStatus')} ${step.status}`}
      </Typography.Text>
      <Typography.Text type="secondary" style={{ wordBreak: 'break-all' }}>
        {step.message}
      </Typography.Text>
    </Space>
  );
}

function TestDialog({ row, onClose }: { row: Row; onClose: () => void }) {
  const { t } = useTranslation();
  const [result, setResult] = useState<OssTestResult | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    postData<OssTestResult>(`${BASE}/test`, { id: row.id })
      .then((r) => live && setResult(r))
      .catch(() => live && setFailed(true)); // the http client has shown what went wrong
    return () => {
      live = false;
    };
  }, [row.id]);
  const lang = currentLanguage();
  return (
    <Modal
      open
      title={t('resource.testTitle', { name: nameOf(row) })}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('common.close')}</Button>}
    >
      {!result && !failed && (
        <Spin tip={t('resource.testRunning')}>
          <div style={{ height: 80 }} />
        </Spin>
      )}
      {result && (
        <>
          <Alert
            type={result.ok ? 'success' : 'error'}
            showIcon
            message={result.ok ? t('resource.testPassed') : t('resource.testFailed')}
            style={{ marginBottom: 16 }}
          />
          <Steps
            direction="vertical"
            size="small"
            current={result.steps.length}
            items={result.steps.map((step) => ({
              title: OSS_TEST_STEP_LABELS[step.step][lang],
              status: step.ok ? 'finish' : step.code === 'Skipped' ? 'wait' : 'error',
              description: <StepDetail step={step} />,
            }))}
            data-testid="oss-test-steps"
          />
        </>
      )}
    </Modal>
  );
}

export default function OssPage() {
  const { t } = useTranslation();
  useSession((s) => s.permission); // re-render when grants change
  const [testing, setTesting] = useState<Row | null>(null);
  return (
    <>
      <CrudPage
        def={ossResource}
        rowName={nameOf}
        columns={{
          render: { enabled: (_v, row) => <EnabledTag row={row} /> },
        }}
        rowActions={(row, ctx) => (
          <>
            {can(ENABLE_CODE) && !isEnabled(row) && (
              <EnableAction
                base={BASE}
                row={row}
                ctx={ctx}
                name={nameOf(row)}
                confirm={t('resource.enableConfirm', { name: nameOf(row) })}
              />
            )}
            {can(TEST_CODE) && (
              <Button
                type="link"
                size="small"
                onClick={() => setTesting(row)}
                aria-label={`${t('resource.test')} ${nameOf(row)}`}
              >
                {t('resource.test')}
              </Button>
            )}
          </>
        )}
      />
      {testing && <TestDialog key={String(testing.id)} row={testing} onClose={() => setTesting(null)} />}
    </>
  );
}
