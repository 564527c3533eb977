/**
 * 评比概览: the latest project (by start date) and its subjects' weighted totals as the server stored them,
 * drawn with the platform's EChart; the number of projects and of subjects evaluated.
 */
import './i18n';
import { ReloadOutlined } from '@ant-design/icons';
import type { Page } from '@smart/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Row, Spin, Statistic } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChartOption, EChart } from '../../platform/charts/EChart';
import { getData } from '../../platform/http/client';

const API = '/api/dfem-hope-manage';

interface Project {
  id: string;
  name: string;
}
interface Entry {
  id: string;
  subjectName: string;
  totalScore: number;
  rank: number;
}

async function figures() {
  const projects = await getData<Page<Project>>(`${API}/evaluationProject/page`, { current: 1, size: 1 });
  const latest = projects.records[0];
  const entries = latest
    ? await getData<Page<Entry>>(`${API}/evaluationList/page`, {
        projectId: latest.id,
        current: 1,
        size: 200,
      })
    : null;
  return { projects: projects.total, latest, entries: entries?.records ?? [], subjects: entries?.total ?? 0 };
}

export default function OverviewPage() {
  const { t } = useTranslation();
  const { data, isFetching, refetch } = useQuery({
    queryKey: ['crud', 'evaluationList', 'overview'],
    queryFn: figures,
    refetchOnMount: 'always',
  });
  const chart = useMemo<ChartOption | null>(() => {
    if (!data?.entries.length) return null;
    return {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      grid: { left: 50, right: 20, top: 30, bottom: 60 },
      xAxis: {
        type: 'category',
        data: data.entries.map((e) => e.subjectName),
        axisLabel: { interval: 0, rotate: 20 },
      },
      yAxis: { type: 'value', max: 100, name: t('evaluation.totalsChart') },
      series: [
        {
          type: 'bar',
          name: t('evaluation.totalsChart'),
          data: data.entries.map((e) => Number(e.totalScore)),
          itemStyle: { color: '#409EFF' },
          label: { show: true, position: 'top' },
        },
      ],
    };
  }, [data, t]);
  const top = data?.entries.length ? Math.max(...data.entries.map((e) => Number(e.totalScore))) : 0;

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <Card
        variant="borderless"
        title={t('evaluation.overviewTitle')}
        extra={
          <Button icon={<ReloadOutlined />} aria-label={t('common.refresh')} onClick={() => refetch()} />
        }
      >
        <Spin spinning={isFetching}>
          <Row gutter={[16, 16]}>
            <Col xs={12} md={6}>
              <Statistic title={t('evaluation.projects')} value={data?.projects ?? 0} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={t('evaluation.latestProject')} value={data?.latest?.name ?? '—'} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={t('evaluation.subjects')} value={data?.subjects ?? 0} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={t('evaluation.topTotal')} value={top.toFixed(2)} />
            </Col>
          </Row>
        </Spin>
      </Card>
      <Card
        variant="borderless"
        title={`${t('evaluation.totalsChart')}${data?.latest ? ` · ${data.latest.name}` : ''}`}
      >
        {chart && data ? (
          <EChart
            option={chart}
            height={360}
            label={`${t('evaluation.totalsChart')}: ${data.entries
              .map((e) => `${e.subjectName} ${Number(e.totalScore).toFixed(2)}`)
              .join(', ')}`}
          />
        ) : (
          !isFetching && <Empty description={t('evaluation.noData')} />
        )}
      </Card>
    </div>
  );
}
