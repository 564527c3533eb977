/**
 * The identification's pages in the work desk (flow dictionary family `relief`): a task is handled, and an
 * instance read, beside the household it is about (its record from preventionPoverty/detail); the process
 * is started from the monitored households' screen (发起识别), never from an empty form.
 */
import './i18n';
import '../work/i18n';
import { preventionPovertyResource } from '@smart/contracts/relief';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { RecordView } from '../../platform/crud/ViewDialog';
import { HandleTask } from '../work/process/HandleTask';
import { ProcessDetail } from '../work/process/ProcessDetail';
import { usePatternParams } from '../work/process/params';

export const RELIEF_WORK = {
  handle: '/work/process/relief/handle/:taskId/:processInstanceId/:businessId',
  detail: '/work/process/relief/detail/:processInstanceId/:businessId',
  form: '/work/process/relief/form/:processDefinitionId',
} as const;

const Household = ({ id }: { id: string | undefined }) =>
  id ? <RecordView def={preventionPovertyResource} id={id} /> : null;

export function ReliefHandlePage() {
  const { t } = useTranslation();
  const p = usePatternParams<'taskId' | 'processInstanceId' | 'businessId'>(RELIEF_WORK.handle);
  return (
    <HandleTask
      title={t('relief.handleTitle')}
      formName="reliefHandle"
      taskId={p.taskId}
      processInstanceId={p.processInstanceId}
    >
      <Household id={p.businessId} />
    </HandleTask>
  );
}

export function ReliefDetailPage() {
  const { t } = useTranslation();
  const p = usePatternParams<'processInstanceId' | 'businessId'>(RELIEF_WORK.detail);
  return (
    <ProcessDetail title={t('relief.detailTitle')} processInstanceId={p.processInstanceId}>
      <Household id={p.businessId} />
    </ProcessDetail>
  );
}

export function ReliefFormPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="info"
      title={t('relief.startFromList')}
      extra={
        <Button type="primary" onClick={() => navigate('/relief/monitor/index')}>
          {t('relief.goToList')}
        </Button>
      }
    />
  );
}
