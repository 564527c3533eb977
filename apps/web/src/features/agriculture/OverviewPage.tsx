/**
 * 农业概览: the home page's agriculture figures (spec §7 `common/index`), each computed by the server from the
 * rows the caller may read: certifications per certified year (cooperatives and farms) and per-capita
 * income by year (household incomes of village affairs); and from the trap lamps' readings, today's pests
 * and the last 30 days' by species (`today/harmful`, `other/harmful`).
 */
import './i18n';
import type { AgriIncomeYear, AgriYearCount } from '@smart/contracts/agriculture';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChartCard, type NamedCount } from '../../platform/charts/ChartCard';
import { FigureCard } from '../../platform/charts/FigureCard';
import { useOverview } from '../../platform/charts/useOverview';

const API = '/api/dfem-hope-manage/common/index';

export default function AgricultureOverviewPage() {
  const { t } = useTranslation();
  const cer = useOverview<AgriYearCount[]>(`${API}/year/cer`, 'cooperation');
  const income = useOverview<AgriIncomeYear[]>(`${API}/income/per`, 'villagerIncome');
  const today = useOverview<NamedCount[]>(`${API}/today/harmful`, 'device');
  const other = useOverview<{ total: NamedCount[] }>(`${API}/other/harmful`, 'device');
  const both = {
    data:
      cer.data && income.data && today.data && other.data
        ? { cer: cer.data, income: income.data, today: today.data, other: other.data.total }
        : undefined,
    isFetching: cer.isFetching || income.isFetching || today.isFetching || other.isFetching,
    refetch: () => Promise.all([cer.refetch(), income.refetch(), today.refetch(), other.refetch()]),
  };
  const latest = income.data?.[income.data.length - 1];
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <FigureCard
        title={t('agriculture.overviewTitle')}
        figures={[
          [t('agriculture.certifications'), cer.data?.reduce((sum, r) => sum + r.value, 0)],
          [t('agriculture.latestIncome'), latest?.perCapita.toFixed(2)],
          [t('agriculture.incomeYear'), latest?.year],
          [t('agriculture.pestToday'), today.data?.reduce((sum, r) => sum + r.value, 0)],
        ]}
        query={both}
      />
      {both.data && (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <ChartCard
              kind="bar"
              title={t('agriculture.certByYear')}
              series={t('agriculture.certCount')}
              items={both.data.cer.map((r) => ({ name: String(r.year), value: r.value }))}
              color="#389e0d"
            />
          </Col>
          <Col xs={24} lg={12}>
            <ChartCard
              kind="bar"
              title={t('agriculture.incomeByYear')}
              series={t('agriculture.perCapita')}
              items={both.data.income.map((r) => ({ name: String(r.year), value: r.perCapita }))}
              color="#1677ff"
            />
          </Col>
          <Col xs={24} lg={12}>
            <ChartCard kind="pie" title={t('agriculture.harmfulToday')} items={both.data.today} />
          </Col>
          <Col xs={24} lg={12}>
            <ChartCard
              kind="bar"
              title={t('agriculture.harmfulOther')}
              series={t('agriculture.pestCount')}
              items={both.data.other}
              color="#fa8c16"
            />
          </Col>
        </Row>
      )}
    </div>
  );
}
