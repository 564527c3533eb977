/**
 * 党建概览: the tenant's party figures, computed by the server from the rows the caller may read
 * (GET partyOverview/statistics): members by branch, by age band, by education (of the linked villager,
 * dictionary-labelled in the request's language), and the share of households a member looks after.
 */
import './i18n';
import type { PartyOverview } from '@smart/contracts/party';
import { Col, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../platform/charts/ChartCard';
import { FigureCard } from '../../platform/charts/FigureCard';
import { useOverview } from '../../platform/charts/useOverview';
import type { partyZh } from './strings';

export default function PartyOverviewPage() {
  const { t } = useTranslation();
  const overview = useOverview<PartyOverview>(
    '/api/dfem-hope-manage/partyOverview/statistics',
    'villagerToParty',
  );
  const { data } = overview;

  const coverage = data?.households ? Math.round((data.pairedHouseholds / data.households) * 1000) / 10 : 0;
  const pairing = useMemo(
    () =>
      data
        ? [
            { name: t('party.paired'), value: data.pairedHouseholds },
            { name: t('party.unpaired'), value: data.households - data.pairedHouseholds },
          ]
        : [],
    [data, t],
  );
  const stats: [keyof typeof partyZh, number | string | undefined][] = data
    ? [
        ['members', data.members],
        ['probationary', data.probationary],
        ['organisations', data.organisations],
        ['activities', data.activities],
        ['households', data.households],
        ['pairedHouseholds', data.pairedHouseholds],
        ['coverage', `${coverage}%`],
      ]
    : [];

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <FigureCard
        title={t('party.overviewTitle')}
        figures={stats.map(([key, value]) => [t(`party.${key}`), value] as const)}
        query={overview}
      />
      {data && (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <ChartCard
              kind="bar"
              title={t('party.byBranch')}
              series={t('party.memberCount')}
              items={data.byBranch}
              color="#c0392b"
            />
          </Col>
          <Col xs={24} lg={12}>
            <ChartCard kind="pie" title={t('party.byAge')} items={data.byAge} />
          </Col>
          <Col xs={24} lg={12}>
            <ChartCard kind="pie" title={t('party.byEducation')} items={data.byEducation} />
          </Col>
          <Col xs={24} lg={12}>
            <ChartCard kind="pie" title={t('party.pairing')} items={pairing} />
          </Col>
        </Row>
      )}
    </div>
  );
}
