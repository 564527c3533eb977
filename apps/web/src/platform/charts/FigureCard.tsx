/**
 * The figures card at the top of an area's overview: a titled card of labelled numbers (a list, for screen
 * readers), a refresh button, a spinner until the figures arrive. The charts below it are the page's own.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Col, Row, Spin, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';

export function FigureCard({
  title,
  figures,
  query,
}: {
  title: string;
  /** label and value of each figure, in order */
  figures: readonly (readonly [label: string, value: number | string | undefined])[];
  /** the figures' query (useOverview): a spinner until its data arrive, its refetch behind the button */
  query: { data: unknown; isFetching: boolean; refetch: () => unknown };
}) {
  const { t } = useTranslation();
  const loading = query.data === undefined;
  return (
    <Card
      variant="borderless"
      title={title}
      extra={
        <Button
          aria-label={t('common.refresh')}
          icon={<ReloadOutlined />}
          loading={query.isFetching}
          onClick={() => void query.refetch()}
        />
      }
    >
      {loading ? (
        <Spin />
      ) : (
        <Row gutter={[16, 16]} role="list" aria-label={title}>
          {figures.map(([label, value]) => (
            <Col key={label} xs={12} sm={8} md={6} lg={4} role="listitem">
              {/* a count is grouped (1,234); text (a year, an amount, a share) is shown as the declaration wrote it */}
              <Statistic
                title={label}
                value={value}
                formatter={typeof value === 'string' ? () => value : undefined}
              />
            </Col>
          ))}
        </Row>
      )}
    </Card>
  );
}
