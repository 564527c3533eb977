/**
 * 党员管理: the members' list (villagerToParty), with the probationary members whose probation ends within
 * a chosen number of days above it (GET villagerToParty/probation-due), and a button that posts them as one
 * notice of 通知公告 (POST probation-notice; shown to those who may add or edit members, refused otherwise).
 */
import './i18n';
import type { ProbationDue } from '@smart/contracts/party';
import { villagerToPartyResource } from '@smart/contracts/party';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, InputNumber, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import { getData, postData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';

const BASE = '/api/dfem-hope-manage/villagerToParty';

function ProbationDueCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  useSession((s) => s.permission); // re-render when grants change
  const [days, setDays] = useState(30);
  const [posting, setPosting] = useState(false);
  const { data, isFetching } = useQuery({
    // under the resource's key: a saved member refreshes it
    queryKey: ['crud', villagerToPartyResource.key, 'probation-due', days],
    queryFn: () => getData<ProbationDue[]>(`${BASE}/probation-due`, { days }),
    refetchOnMount: 'always',
  });
  const mayNotify =
    can(`${villagerToPartyResource.permission}_add`) || can(`${villagerToPartyResource.permission}_edit`);
  const notify = async () => {
    setPosting(true);
    try {
      const r = await postData<{ due: number; created: boolean }>(`${BASE}/probation-notice`, undefined, {
        days,
      });
      if (!r.due) message.info(t('party.nobodyDue'));
      else if (r.created) message.success(t('party.notified'));
      else message.info(t('party.notifiedBefore'));
    } finally {
      setPosting(false);
    }
  };
  return (
    <Card
      variant="borderless"
      title={t('party.dueTitle')}
      extra={
        <Space>
          <span>{t('party.dueWithin')}</span>
          <InputNumber
            aria-label={t('party.dueWithin')}
            min={0}
            max={366}
            value={days}
            onChange={(v) => setDays(typeof v === 'number' ? v : 30)}
          />
          <span>{t('party.days')}</span>
          {mayNotify && (
            <Button onClick={notify} loading={posting} disabled={!data?.length}>
              {t('party.notify')}
            </Button>
          )}
        </Space>
      }
    >
      <Table<ProbationDue>
        aria-label={t('party.dueTitle')}
        size="small"
        rowKey="id"
        loading={isFetching}
        dataSource={data ?? []}
        pagination={false}
        locale={{ emptyText: t('party.dueEmpty') }}
        columns={[
          { title: t('party.dueName'), dataIndex: 'villagerName' },
          { title: t('party.dueOrg'), dataIndex: 'orgName' },
          { title: t('party.dueJoined'), dataIndex: 'joinDate' },
          { title: t('party.dueEnds'), dataIndex: 'probationEnd' },
          {
            title: t('party.dueLeft'),
            dataIndex: 'daysLeft',
            render: (d: number) =>
              d < 0 ? (
                <Tag color="red">{t('party.overdue', { days: -d })}</Tag>
              ) : (
                <Tag color={d <= 7 ? 'orange' : 'blue'}>{d}</Tag>
              ),
          },
        ]}
      />
    </Card>
  );
}

export default function MemberPage() {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <ProbationDueCard />
      <CrudPage def={villagerToPartyResource} />
    </div>
  );
}
