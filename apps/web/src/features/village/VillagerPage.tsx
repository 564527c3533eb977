/** 村民信息: the roster (list, dialogs, Excel) and the household view (members of one household together). */
import './i18n';
import { idCardInfo, PAGE_SIZES, type Page } from '@smart/contracts/core';
import { villagerResource } from '@smart/contracts/village';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, Space, Table, Tabs, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import type { FieldControlProps } from '../../platform/crud/fields';
import { DictLabel, FieldControl } from '../../platform/crud/fields';
import { getData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';

const BASE = '/api/dfem-hope-manage/villager';

/** The ID number's box: a valid number fills in the birth date and sex it states. */
function IdCardInput(props: FieldControlProps) {
  const form = Form.useFormInstance();
  return (
    <FieldControl
      {...props}
      onChange={(v) => {
        props.onChange?.(v);
        const info = typeof v === 'string' ? idCardInfo(v.trim()) : null;
        if (!info) return;
        form.setFieldsValue({ birthDate: dayjs(info.birthDate), sex: info.sex });
        void form.validateFields(['birthDate', 'sex']).catch(() => {});
      }}
    />
  );
}

interface Household {
  householdNo: string;
  headName: string;
  members: number;
  villageGroup: string;
  address: string | null;
  lowIncome: number;
  povertyAlleviated: number;
}
type Member = Record<string, unknown> & { id: string };

function Members({ householdNo }: { householdNo: string }) {
  const { t } = useTranslation();
  const { data, isLoading } = useQuery({
    queryKey: ['crud', 'villager', 'household', householdNo],
    queryFn: () => getData<Member[]>(`${BASE}/household`, { householdNo }),
  });
  const field = (name: string) => villagerResource.fields.find((f) => f.name === name)!;
  const label = (name: string) => field(name).label;
  const lang = currentLanguage();
  return (
    <Table<Member>
      size="small"
      rowKey="id"
      loading={isLoading}
      pagination={false}
      aria-label={t('village.householdMembers')}
      dataSource={data ?? []}
      columns={[
        { key: 'name', dataIndex: 'name', title: label('name')[lang] },
        {
          key: 'relation',
          dataIndex: 'relation',
          title: label('relation')[lang],
          render: (v) => <DictLabel code="household_relation" value={v} />,
        },
        {
          key: 'sex',
          dataIndex: 'sex',
          title: label('sex')[lang],
          render: (v) => <DictLabel code="sex" value={v} />,
        },
        { key: 'birthDate', dataIndex: 'birthDate', title: label('birthDate')[lang] },
        { key: 'idCard', dataIndex: 'idCard', title: label('idCard')[lang] },
        { key: 'phone', dataIndex: 'phone', title: label('phone')[lang] },
        {
          key: 'politicalStatus',
          dataIndex: 'politicalStatus',
          title: label('politicalStatus')[lang],
          render: (v) => <DictLabel code="political_status" value={v} />,
        },
      ]}
    />
  );
}

function Households() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [paging, setPaging] = useState({ current: 1, size: 10 });
  const groupField = villagerResource.fields.find((f) => f.name === 'villageGroup')!;
  const query = useQuery({
    queryKey: ['crud', 'villager', 'households', paging, filters],
    queryFn: () => getData<Page<Household>>(`${BASE}/households`, { ...paging, ...filters }),
  });
  return (
    <Card variant="borderless" styles={{ body: { padding: 16 } }}>
      <Form
        form={form}
        layout="inline"
        style={{ marginBottom: 16, rowGap: 12 }}
        onFinish={(v: Record<string, string | undefined>) => {
          const next: Record<string, string> = {};
          for (const [k, x] of Object.entries(v)) if (x) next[k] = String(x).trim();
          setFilters(next);
          setPaging((p) => ({ ...p, current: 1 }));
        }}
      >
        <Form.Item name="householdNo" label={t('village.householdNo')}>
          <Input allowClear aria-label={t('village.householdNo')} />
        </Form.Item>
        <Form.Item name="name" label={t('village.headName')}>
          <Input allowClear aria-label={t('village.headName')} />
        </Form.Item>
        <Form.Item name="villageGroup" label={t('village.villageGroup')}>
          <FieldControl field={groupField} placeholder={t('village.villageGroup')} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">
              {t('common.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                setFilters({});
              }}
            >
              {t('common.clear')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<Household>
        rowKey="householdNo"
        size="middle"
        loading={query.isFetching}
        dataSource={query.data?.records ?? []}
        expandable={{ expandedRowRender: (r) => <Members householdNo={r.householdNo} /> }}
        columns={[
          { key: 'householdNo', dataIndex: 'householdNo', title: t('village.householdNo') },
          { key: 'headName', dataIndex: 'headName', title: t('village.headName') },
          { key: 'members', dataIndex: 'members', title: t('village.members') },
          {
            key: 'villageGroup',
            dataIndex: 'villageGroup',
            title: t('village.villageGroup'),
            render: (v) => <DictLabel code="village_group" value={v} />,
          },
          { key: 'address', dataIndex: 'address', title: t('village.address') },
          {
            key: 'flags',
            title: t('village.flags'),
            render: (_, r) => (
              <Space size={4}>
                {r.lowIncome === 1 && <Tag color="red">{t('village.lowIncome')}</Tag>}
                {r.povertyAlleviated === 1 && <Tag color="orange">{t('village.poverty')}</Tag>}
              </Space>
            ),
          },
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

export default function VillagerPage() {
  const { t } = useTranslation();
  return (
    <Tabs
      defaultActiveKey="list"
      destroyOnHidden={false}
      items={[
        {
          key: 'list',
          label: t('village.tabList'),
          children: (
            <CrudPage
              def={villagerResource}
              fields={{ idCard: { control: (p) => <IdCardInput {...p} /> } }}
            />
          ),
        },
        { key: 'households', label: t('village.tabHouseholds'), children: <Households /> },
      ]}
    />
  );
}
