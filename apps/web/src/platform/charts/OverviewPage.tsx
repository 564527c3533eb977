/**
 * The one overview page: an area's 概览 drawn from its declaration (`AreaDef.overview`) — the figures card,
 * then the charts two to a row — from the answers of its sources, each read again whenever the page is shown,
 * in the screen's language, and when a row of the resource it watches is saved (useOverview's keys).
 */
import type { OverviewChart, OverviewDecl } from '@smart/contracts/core';
import { useQueries } from '@tanstack/react-query';
import { Card, Col, Row } from 'antd';
import { type ComponentType, useMemo } from 'react';
import { getData } from '../http/client';
import { useLanguage } from '../i18n';
import { ChartCard } from './ChartCard';
import { type ChartOption, EChart } from './EChart';
import { FigureCard } from './FigureCard';
import { overviewKey } from './useOverview';

type Lang = 'zh' | 'en';

/** Grouped bars of several series over the same categories (budget and spend per unit). */
function BarsCard({
  chart,
  answers,
  lang,
}: {
  chart: Extract<OverviewChart, { kind: 'bars' }>;
  answers: Record<string, unknown>;
  lang: Lang;
}) {
  const categories = chart.categories(answers);
  const series = chart.series.map((s) => ({ ...s, name: s.label[lang], data: s.values(answers) }));
  const option = useMemo<ChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { data: series.map((s) => s.name) },
      grid: { left: 20, right: 20, top: 40, bottom: 10, containLabel: true },
      // every category's name under its bars, broken onto lines rather than cut
      xAxis: {
        type: 'category',
        data: [...categories],
        axisLabel: { interval: 0, width: 90, overflow: 'break' },
      },
      yAxis: { type: 'value' },
      series: series.map((s) => ({
        name: s.name,
        type: 'bar',
        data: [...s.data],
        ...(s.color ? { itemStyle: { color: s.color } } : {}),
      })),
    }),
    [categories, series],
  );
  const title = chart.title[lang];
  const summary = categories
    .map((c, i) => `${c} ${series.map((s) => `${s.name} ${s.data[i]}`).join(' ')}`)
    .join(', ');
  return (
    <Card variant="borderless" title={title}>
      <EChart option={option} label={`${title}: ${summary}`} />
    </Card>
  );
}

function OverviewPage({ decl }: { decl: OverviewDecl }) {
  const lang = useLanguage((s) => s.language) as Lang;
  const names = Object.keys(decl.sources);
  const results = useQueries({
    queries: names.map((name) => {
      const { url, watch } = decl.sources[name];
      return {
        queryKey: overviewKey(url, watch, lang),
        queryFn: () => getData<unknown>(url),
        refetchOnMount: 'always' as const,
      };
    }),
  });
  const ready = results.every((r) => r.data !== undefined);
  const answers = Object.fromEntries(names.map((name, i) => [name, results[i].data]));
  const query = {
    data: ready ? answers : undefined,
    isFetching: results.some((r) => r.isFetching),
    refetch: () => Promise.all(results.map((r) => r.refetch())),
  };
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <FigureCard
        title={decl.title[lang]}
        figures={decl.figures.map(
          (f) => [f.label[lang], ready ? f.value(answers, lang) : undefined] as const,
        )}
        query={query}
      />
      {ready && (
        <Row gutter={[16, 16]}>
          {decl.charts.map((chart) => (
            <Col key={chart.title.en} xs={24} lg={chart.wide ? 24 : 12}>
              {chart.kind === 'bars' ? (
                <BarsCard chart={chart} answers={answers} lang={lang} />
              ) : (
                <ChartCard
                  kind={chart.kind}
                  title={chart.title[lang]}
                  series={chart.series?.[lang]}
                  items={chart.items(answers, lang)}
                  color={chart.color}
                  colors={chart.colors ? [...chart.colors] : undefined}
                />
              )}
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}

/** The page of an overview declaration (a page family's module for its path). */
export const overviewPage = (decl: OverviewDecl): { default: ComponentType } => ({
  default: () => <OverviewPage decl={decl} />,
});
