/**
 * 评比项目: the generic list page, with the rules and their weights picked row by row (the sum shown as it is
 * typed, red until it is exactly 100: the server refuses anything else) instead of typing their JSON.
 */
import './i18n';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Page } from '@smart/contracts/core';
import { evaluationProjectResource, parseRuleWeights, weightSum } from '@smart/contracts/evaluation';
import { useQuery } from '@tanstack/react-query';
import { Button, InputNumber, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import type { FieldControlProps } from '../../platform/crud/types';
import { getData } from '../../platform/http/client';

interface Rule {
  id: string;
  name: string;
  weight: number;
}
type Weight = { ruleId: string; weight: number | null };

const useRules = () =>
  useQuery({
    queryKey: ['crud', 'evaluationRule', 'choices'],
    queryFn: () =>
      getData<Page<Rule>>('/api/dfem-hope-manage/evaluationRule/page', { current: 1, size: 200 }),
  });

const read = (value: unknown): Weight[] => {
  try {
    const v = JSON.parse(String(value ?? '[]'));
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
};

function WeightsControl({ value, onChange, id, disabled }: FieldControlProps) {
  const { t } = useTranslation();
  const rules = useRules().data?.records ?? [];
  const rows = read(value);
  const set = (next: Weight[]) => onChange?.(JSON.stringify(next));
  const sum = weightSum(rows.map((r) => ({ weight: Number(r.weight ?? 0) })));
  return (
    <div id={id}>
      {rows.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a row is its place in the list (a new one has no rule yet)
        <Space key={i} style={{ display: 'flex', marginBottom: 8 }}>
          <Select
            aria-label={t('evaluation.rule')}
            style={{ width: 260 }}
            disabled={disabled}
            value={r.ruleId || undefined}
            placeholder={t('evaluation.pickRule')}
            options={rules
              .filter((x) => x.id === r.ruleId || !rows.some((o) => o.ruleId === x.id))
              .map((x) => ({ value: x.id, label: x.name }))}
            onChange={(ruleId: string) => {
              const dflt = rules.find((x) => x.id === ruleId)?.weight ?? null;
              set(rows.map((o, j) => (j === i ? { ruleId, weight: o.weight ?? Number(dflt) } : o)));
            }}
          />
          <InputNumber
            aria-label={t('evaluation.weightLabel')}
            min={0}
            max={100}
            disabled={disabled}
            value={r.weight}
            onChange={(w) =>
              set(rows.map((o, j) => (j === i ? { ...o, weight: w === null ? null : Number(w) } : o)))
            }
          />
          <Button
            aria-label={t('evaluation.removeRule')}
            icon={<DeleteOutlined />}
            disabled={disabled}
            onClick={() => set(rows.filter((_, j) => j !== i))}
          />
        </Space>
      ))}
      <Space>
        <Button
          icon={<PlusOutlined />}
          disabled={disabled}
          onClick={() => set([...rows, { ruleId: '', weight: null }])}
        >
          {t('evaluation.addRule')}
        </Button>
        <Typography.Text type={sum === 100 ? 'success' : 'danger'}>
          {t('evaluation.weightSum', { sum })}
        </Typography.Text>
      </Space>
    </div>
  );
}

function WeightsView({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const rules = useRules().data?.records ?? [];
  const weights = parseRuleWeights(value) ?? [];
  return (
    <span>
      {weights
        .map(
          (w) =>
            `${rules.find((r) => r.id === w.ruleId)?.name ?? w.ruleId} ${t('evaluation.weight', { weight: w.weight })}`,
        )
        .join(';')}
    </span>
  );
}

export default function ProjectPage() {
  return (
    <CrudPage
      def={evaluationProjectResource}
      fields={{
        ruleWeights: {
          control: (p) => <WeightsControl {...p} />,
          view: (v) => <WeightsView value={v} />,
        },
      }}
    />
  );
}
