/**
 * 轮播图: the generic list of banners — top ones first, then by order (the server's order) — with a 置顶 tag on
 * the banners on top, whether each is in effect today (its active dates and its switch: the server's
 * `active`), and 置顶 / 取消置顶 per row for whoever holds `carousel_top` (GET carousel/set/top/{id}/{1|0}).
 * The dialog saves through the family's `upsert`; a web address's link must be http(s), as the server says.
 */
import './i18n';
import { carouselLinkProblem, carouselResource } from '@smart/contracts/wechat';
import { App, Button, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudContext, CrudPage, type Row } from '../../platform/crud/CrudPage';
import { EMPTY } from '../../platform/crud/values';
import { getData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';
import { can, useSession } from '../../platform/session/session';

const BASE = `/api/${carouselResource.service}/${carouselResource.path}`;
const TOP_CODE = `${carouselResource.permission}_top`;
const onTop = (row: Row) => Number(row.isTop) === 1;
const titleOf = (row: Row) => String(row.title ?? '');

function TopAction({ row, ctx }: { row: Row; ctx: CrudContext }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const top = onTop(row);
  const label = top ? t('wechat.unsetTop') : t('wechat.setTop');
  const toggle = async () => {
    setBusy(true);
    try {
      await getData(`${BASE}/set/top/${row.id}/${top ? 0 : 1}`);
      message.success(t('common.succeeded'));
      await ctx.refresh();
    } catch {
      // the http client has shown what went wrong (a 403, a banner removed meanwhile)
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button type="link" size="small" loading={busy} onClick={toggle} aria-label={`${label} ${titleOf(row)}`}>
      {label}
    </Button>
  );
}

export default function CarouselPage() {
  const { t } = useTranslation();
  useSession((s) => s.permission); // re-render when grants change
  return (
    <CrudPage
      def={carouselResource}
      submitPath="upsert"
      rowName={titleOf}
      columns={{
        render: {
          isTop: (_v, row) => (onTop(row) ? <Tag color="red">{t('wechat.onTop')}</Tag> : EMPTY),
        },
        extra: [
          {
            title: t('wechat.activeState'),
            key: 'active',
            render: (_: unknown, row: Row) =>
              row.active === true ? (
                <Tag color="green">{t('wechat.active')}</Tag>
              ) : (
                <Tag>{t('wechat.inactive')}</Tag>
              ),
          },
        ],
      }}
      fields={{
        // a web address is an http(s) URL: the rule the server's beforeWrite runs, worded once
        linkTarget: {
          rules: [
            ({ getFieldValue }) => ({
              validator: async (_rule, value) => {
                const problem = carouselLinkProblem(getFieldValue('linkKind'), value);
                if (problem) throw new Error(problem[currentLanguage()]);
              },
            }),
          ],
        },
      }}
      rowActions={(row, ctx) => (can(TOP_CODE) ? <TopAction row={row} ctx={ctx} /> : null)}
    />
  );
}
