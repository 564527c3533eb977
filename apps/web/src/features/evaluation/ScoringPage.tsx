/**
 * 评比打分: one project's subjects (the generic list of evaluationList, filtered to the project and ordered
 * by total, with each subject's place: ties share it, marked 并列), a score dialog per subject whose weighted total is previewed
 * with the contracts' `evaluationTotal` (the server stores the same), and the project's publish / reopen.
 */
import './i18n';
import type { Page } from '@smart/contracts/core';
import { evaluationListResource, evaluationTotal, PROJECT_STATUS } from '@smart/contracts/evaluation';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Statistic,
  Tag,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import { DictLabel } from '../../platform/crud/fields';
import type { Row } from '../../platform/crud/types';
import { RankCell } from '../../platform/crud/ValueViews';
import { getData, postData } from '../../platform/http/client';
import { can } from '../../platform/session/session';

const API = '/api/dfem-hope-manage';

interface Project {
  id: string;
  name: string;
  startDate: string;
  endDate: string;
  projectStatus: string;
  ruleWeights: string;
  reopenHistory?: string;
}
interface ScoredRule {
  ruleId: string;
  name: string;
  weight: number;
  maxScore: number;
  score: number | null;
}
interface Entry {
  id: string;
  subjectName: string;
  totalScore: number;
  rank: number;
  rules: ScoredRule[];
}
interface Reopening {
  account: string;
  time: string;
  reason: string;
}

const parseList = <T,>(json: string | undefined): T[] => {
  try {
    const v = JSON.parse(json ?? '[]');
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
};

/** the score dialog: one number per rule, the weighted total previewed as they are typed */
function ScoreDialog({ id, onClose, onSaved }: { id: string; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [scores, setScores] = useState<Record<string, number | null>>({});
  const [saving, setSaving] = useState(false);
  const entry = useQuery({
    queryKey: ['crud', 'evaluationList', 'detail', id],
    queryFn: () => postData<Entry>(`${API}/evaluationList/detail`, { id }),
    refetchOnMount: 'always',
  });
  const rules = entry.data?.rules ?? [];
  const values = useMemo(
    () => Object.fromEntries(rules.map((r) => [r.ruleId, scores[r.ruleId] ?? r.score ?? null])),
    [rules, scores],
  );
  const preview = evaluationTotal(rules, values);
  const save = async () => {
    setSaving(true);
    try {
      const saved = await postData<Entry>(`${API}/evaluationList/score`, { id, scores: values });
      message.success(t('evaluation.savedTotal', { total: Number(saved.totalScore).toFixed(2) }));
      onSaved();
      onClose();
    } catch {
      // the http client has shown the server's message
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={t('evaluation.scoreTitle', { name: entry.data?.subjectName ?? '' })}
      onCancel={onClose}
      onOk={save}
      okButtonProps={{ loading: saving, disabled: !entry.data }}
      destroyOnHidden
    >
      <Form layout="vertical">
        {rules.map((r) => (
          <Form.Item
            key={r.ruleId}
            label={`${r.name}(${t('evaluation.weight', { weight: r.weight })},${t('evaluation.maxScore', { max: r.maxScore })})`}
            htmlFor={`score-${r.ruleId}`}
          >
            <InputNumber
              id={`score-${r.ruleId}`}
              aria-label={r.name}
              min={0}
              max={r.maxScore}
              step={0.5}
              style={{ width: '100%' }}
              value={values[r.ruleId]}
              onChange={(v) => setScores((s) => ({ ...s, [r.ruleId]: v === null ? null : Number(v) }))}
            />
          </Form.Item>
        ))}
      </Form>
      <Statistic
        title={t('evaluation.previewTotal')}
        value={preview.toFixed(2)}
        valueStyle={{ color: '#1677ff' }}
        data-testid="evaluation-preview"
      />
    </Modal>
  );
}

function ReopenDialog({
  project,
  onClose,
  onDone,
}: {
  project: Project;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const { reason } = await form.validateFields();
    setSaving(true);
    try {
      await postData(`${API}/evaluationProject/reopen`, { id: project.id, reason });
      onDone();
      onClose();
    } catch {
      // shown by the http client
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={t('evaluation.reopenTitle')}
      onCancel={onClose}
      onOk={submit}
      okButtonProps={{ loading: saving }}
    >
      <Typography.Paragraph>{t('evaluation.reopenConfirm')}</Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={t('evaluation.reopenReason')}
          rules={[{ required: true, whitespace: true, message: t('evaluation.reopenReasonRequired') }]}
        >
          <Input.TextArea maxLength={200} rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function ScoringPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [projectId, setProjectId] = useState<string>();
  const [scoring, setScoring] = useState<string>();
  const [reopening, setReopening] = useState(false);
  const projects = useQuery({
    queryKey: ['crud', 'evaluationProject', 'choices'],
    queryFn: () => getData<Page<Project>>(`${API}/evaluationProject/page`, { current: 1, size: 100 }),
    refetchOnMount: 'always',
  });
  const chosen = projectId ?? projects.data?.records[0]?.id;
  const project = useQuery({
    queryKey: ['crud', 'evaluationProject', 'detail', chosen],
    queryFn: () => getData<Project>(`${API}/evaluationProject/detail`, { id: chosen }),
    enabled: !!chosen,
    refetchOnMount: 'always',
  });
  const p = project.data;
  const frozen = p?.projectStatus === PROJECT_STATUS.published;
  const reload = () => client.invalidateQueries({ queryKey: ['crud'] });
  const publish = async () => {
    try {
      await postData(`${API}/evaluationProject/publish`, { id: chosen });
      message.success(t('evaluation.published'));
      await reload();
    } catch {
      // shown by the http client
    }
  };
  const history = parseList<Reopening>(p?.reopenHistory);

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card variant="borderless" styles={{ body: { padding: 16 } }}>
        <Space wrap size={16}>
          <Form.Item label={t('evaluation.project')} style={{ margin: 0 }} htmlFor="evaluation-project">
            <Select
              id="evaluation-project"
              style={{ minWidth: 280 }}
              placeholder={t('evaluation.pickProject')}
              loading={projects.isFetching}
              value={chosen}
              onChange={setProjectId}
              options={(projects.data?.records ?? []).map((r) => ({ value: r.id, label: r.name }))}
            />
          </Form.Item>
          {p && (
            <>
              <span>
                {t('common.status')}:{' '}
                <Tag color={frozen ? 'red' : 'blue'}>
                  <DictLabel code="evaluation_project_status" value={p.projectStatus} />
                </Tag>
              </span>
              <span>
                {t('evaluation.period')}: {p.startDate} ~ {p.endDate}
              </span>
              {!frozen && can('evaluation_project_publish') && (
                <Popconfirm title={t('evaluation.publishConfirm')} onConfirm={publish}>
                  <Button type="primary">{t('evaluation.publish')}</Button>
                </Popconfirm>
              )}
              {frozen && can('evaluation_project_reopen') && (
                <Button onClick={() => setReopening(true)}>{t('evaluation.reopen')}</Button>
              )}
            </>
          )}
        </Space>
        {frozen && (
          <Alert style={{ marginTop: 12 }} type="warning" showIcon message={t('evaluation.frozenHint')} />
        )}
        {history.length > 0 && (
          <Descriptions style={{ marginTop: 12 }} size="small" column={1} title={t('evaluation.reopenings')}>
            {history.map((h) => (
              <Descriptions.Item key={`${h.time}-${h.account}-${h.reason}`}>
                {t('evaluation.reopenEntry', { time: h.time, account: h.account, reason: h.reason })}
              </Descriptions.Item>
            ))}
          </Descriptions>
        )}
      </Card>
      {chosen ? (
        <CrudPage
          key={chosen}
          def={evaluationListResource}
          fixedFilters={{ projectId: chosen }}
          frozen={frozen}
          addDefaults={{ projectId: chosen }}
          search={false}
          dateRange={false}
          columns={{
            createTime: false,
            // the place (a field of the definition, answered by the server): a shared one marked 并列, in the
            // list and in the view alike
            render: { rank: (v: unknown, row: Row) => <RankCell rank={v} tied={row.tied} /> },
          }}
          rowActions={(row: Row) =>
            !frozen && can('evaluation_list_score') ? (
              <Button type="link" size="small" onClick={() => setScoring(String(row.id))}>
                {t('evaluation.score')}
              </Button>
            ) : null
          }
        />
      ) : (
        <Card>{t('evaluation.noProject')}</Card>
      )}
      {scoring && <ScoreDialog id={scoring} onClose={() => setScoring(undefined)} onSaved={reload} />}
      {reopening && p && <ReopenDialog project={p} onClose={() => setReopening(false)} onDone={reload} />}
    </Space>
  );
}
