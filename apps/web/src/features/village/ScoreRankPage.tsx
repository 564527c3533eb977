/** 积分管理: score records (each takes its rule's points) and the household ranking recomputed from them. */
import './i18n';
import { PAGE_SIZES, type Page } from '@smart/contracts/core';
import { scoreRankResource, villagerResource } from '@smart/contracts/village';
import { useQuery } from '@tanstack/react-query';
import { Card, Form, InputNumber, Space, Table, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import { DictLabel, FieldControl } from '../../platform/crud/fields';
import { RankCell } from '../../platform/crud/ValueViews';
import { getData } from '../../platform/http/client';

interface Ranked {
  householdNo: string;
  headName: string;
  villageGroup: string;
  points: number;
  records: number;
  rank: number;
  /** another household has the same points (并列) */
  tied: boolean;
}

function Ranking() {
  const { t } = useTranslation();
  const [year, setYear] = useState<number | null>(null);
  const [group, setGroup] = useState<string>('');
  const [paging, setPaging] = useState({ current: 1, size: 10 });
  const groupField = villagerResource.fields.find((f) => f.name === 'villageGroup')!;
  const query = useQuery({
    queryKey: ['crud', 'scoreRank', 'ranking', paging, year, group],
    queryFn: () =>
      getData<Page<Ranked>>('/api/dfem-hope-manage/scoreRank/ranking', {
        ...paging,
        year: year ?? undefined,
        villageGroup: group || undefined,
      }),
    refetchOnMount: 'always',
  });
  return (
    <Card variant="borderless" styles={{ body: { padding: 16 } }}>
      <Space style={{ marginBottom: 16 }} wrap>
        <Form.Item label={t('village.year')} style={{ margin: 0 }}>
          <InputNumber
            aria-label={t('village.year')}
            placeholder={t('village.allYears')}
            min={2000}
            max={2100}
            value={year}
            onChange={(v) => {
              setYear(v);
              setPaging((p) => ({ ...p, current: 1 }));
            }}
          />
        </Form.Item>
        <Form.Item label={t('village.villageGroup')} style={{ margin: 0 }}>
          <FieldControl
            field={groupField}
            placeholder={t('village.villageGroup')}
            value={group || undefined}
            onChange={(v) => {
              setGroup((v as string) ?? '');
              setPaging((p) => ({ ...p, current: 1 }));
            }}
          />
        </Form.Item>
      </Space>
      <Table<Ranked>
        rowKey="householdNo"
        size="middle"
        loading={query.isFetching}
        aria-label={t('village.tabRanking')}
        dataSource={query.data?.records ?? []}
        columns={[
          {
            key: 'rank',
            dataIndex: 'rank',
            title: t('village.rank'),
            width: 80,
            render: (v: number, row) => <RankCell rank={v} tied={row.tied} />,
          },
          { key: 'householdNo', dataIndex: 'householdNo', title: t('village.householdNo') },
          { key: 'headName', dataIndex: 'headName', title: t('village.headName') },
          {
            key: 'villageGroup',
            dataIndex: 'villageGroup',
            title: t('village.villageGroup'),
            render: (v) => <DictLabel code="village_group" value={v} />,
          },
          { key: 'points', dataIndex: 'points', title: t('village.points') },
          { key: 'records', dataIndex: 'records', title: t('village.records') },
        ]}
        pagination={{
          current: paging.current,
          pageSize: paging.size,
          total: query.data?.total ?? 0,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          onChange: (current, size) => setPaging({ current: size === paging.size ? current : 1, size }),
        }}
      />
    </Card>
  );
}

export default function ScoreRankPage() {
  const { t } = useTranslation();
  return (
    <Tabs
      defaultActiveKey="records"
      items={[
        {
          key: 'records',
          label: t('village.tabRecords'),
          children: <CrudPage def={scoreRankResource} />,
        },
        { key: 'ranking', label: t('village.tabRanking'), children: <Ranking /> },
      ]}
    />
  );
}
