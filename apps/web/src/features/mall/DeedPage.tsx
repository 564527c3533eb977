/**
 * 积分审核: the generic list of deeds (recorded by staff for a villager, or arriving from the mini program),
 * with 通过 (the villager is credited by the deed's rule) and 驳回 (a reason) on each deed awaiting review.
 */
import './i18n';
import { DEED_STATUS, pointsDeedResource } from '@smart/contracts/mall';
import { App, Button, Popconfirm } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import type { CrudContext, Row } from '../../platform/crud/types';
import { postData } from '../../platform/http/client';
import { can } from '../../platform/session/session';
import { ReasonDialog } from './ReasonDialog';

const API = '/api/dfem-hope-manage/points/deed';

export default function DeedPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [rejecting, setRejecting] = useState<{ row: Row; ctx: CrudContext } | null>(null);
  const approve = async (row: Row, ctx: CrudContext) => {
    try {
      await postData(`${API}/approve`, { id: row.id });
      message.success(t('mall.approved'));
      await ctx.refresh();
    } catch {
      // shown by the http client (a cap reached, a rule switched off)
    }
  };
  return (
    <>
      <CrudPage
        def={pointsDeedResource}
        rowActions={(row, ctx) =>
          String(row.reviewStatus) === DEED_STATUS.pending && (
            <>
              {can('points_deed_approve') && (
                <Popconfirm title={t('mall.approveConfirm')} onConfirm={() => approve(row, ctx)}>
                  <Button type="link" size="small">
                    {t('mall.approve')}
                  </Button>
                </Popconfirm>
              )}
              {can('points_deed_reject') && (
                <Button type="link" size="small" danger onClick={() => setRejecting({ row, ctx })}>
                  {t('mall.reject')}
                </Button>
              )}
            </>
          )
        }
      />
      <ReasonDialog
        open={!!rejecting}
        title={t('mall.rejectTitle')}
        onCancel={() => setRejecting(null)}
        onSubmit={async (reason) => {
          if (!rejecting) return;
          await postData(`${API}/reject`, { id: rejecting.row.id, reason });
          message.success(t('common.succeeded'));
          await rejecting.ctx.refresh();
          setRejecting(null);
        }}
      />
    </>
  );
}
