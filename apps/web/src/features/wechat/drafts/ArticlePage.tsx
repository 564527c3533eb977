/**
 * 文章管理: the published articles with their permanent links; per row 隐藏 / 显示 (`article/hide/{id}`, with
 * `?hidden=0` to show), 开启留言 / 关闭留言 (WeChat's comment/open and close), and 留言 — a drawer with the
 * article's comments (the generic list of 留言管理 fixed to the article), 同步留言 from WeChat, and 取消精选 /
 * 设为精选 per comment (`comment/hide/{id}`).
 */
import '../i18n';
import './i18n';
import { wxArticleResource, wxCommentResource } from '@smart/contracts/wechat-drafts';
import { App, Button, Drawer, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../../platform/crud/CrudPage';
import type { CrudContext, Row } from '../../../platform/crud/types';
import { EMPTY } from '../../../platform/crud/values';
import { getData, postData } from '../../../platform/http/client';
import { can, useSession } from '../../../platform/session/session';

const API = '/api/dfem-hope-wx';
const titleOf = (row: Row) => String(row.title ?? '');

function useAct() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return async (run: () => Promise<unknown>, ctx: CrudContext) => {
    try {
      await run();
      message.success(t('common.succeeded'));
      await ctx.refresh();
    } catch {
      // shown by the http client
    }
  };
}

function Comments({ article }: { article: Row }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const act = useAct();
  const sync = async (ctx: CrudContext) => {
    try {
      const r = await postData<{ total: number }>(`${API}/comment/synchron`, {
        articleId: String(article.id),
      });
      message.success(t('wxpub.synced', { total: r.total }));
      await ctx.refresh();
    } catch {
      // shown by the http client
    }
  };
  return (
    <CrudPage
      def={wxCommentResource}
      fixedFilters={{ articleRowId: String(article.id) }}
      rowName={(r) => String(r.content ?? '').slice(0, 20)}
      toolbar={(ctx) =>
        can('wxComment_synchron') && (
          <Button type="primary" onClick={() => sync(ctx)}>
            {t('wxpub.syncComments')}
          </Button>
        )
      }
      rowActions={(row, ctx) => {
        if (!can('wxComment_hide')) return null;
        const elected = Number(row.elected) === 1;
        const label = elected ? t('wxpub.hideComment') : t('wxpub.electComment');
        return (
          <Button
            type="link"
            size="small"
            aria-label={`${label} ${String(row.content ?? '').slice(0, 20)}`}
            onClick={() =>
              act(() => getData(`${API}/comment/hide/${row.id}${elected ? '' : '?hidden=0'}`), ctx)
            }
          >
            {label}
          </Button>
        );
      }}
    />
  );
}

export default function ArticlePage() {
  const { t } = useTranslation();
  useSession((s) => s.permission);
  const act = useAct();
  const [showing, setShowing] = useState<Row | null>(null);
  return (
    <>
      <CrudPage
        def={wxArticleResource}
        rowName={titleOf}
        columns={{
          render: {
            hidden: (v) => (Number(v) === 1 ? <Tag>{t('wxpub.hide')}</Tag> : EMPTY),
            url: (v, row) =>
              v ? (
                <a
                  href={String(v)}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`${t('wxpub.link')} ${titleOf(row)}`}
                >
                  {t('wxpub.open')}
                </a>
              ) : (
                EMPTY
              ),
          },
        }}
        rowActions={(row, ctx) => {
          const hidden = Number(row.hidden) === 1;
          const open = Number(row.commentOpen) === 1;
          const name = titleOf(row);
          return (
            <Space size={0} wrap>
              {can('wxArticle_hide') && (
                <Button
                  type="link"
                  size="small"
                  aria-label={`${hidden ? t('wxpub.show') : t('wxpub.hide')} ${name}`}
                  onClick={() =>
                    act(() => getData(`${API}/article/hide/${row.id}${hidden ? '?hidden=0' : ''}`), ctx)
                  }
                >
                  {hidden ? t('wxpub.show') : t('wxpub.hide')}
                </Button>
              )}
              {can('wxArticle_comment') && (
                <Button
                  type="link"
                  size="small"
                  aria-label={`${open ? t('wxpub.closeComments') : t('wxpub.openComments')} ${name}`}
                  onClick={() =>
                    act(
                      () =>
                        postData(`${API}/article/${open ? 'closeComment' : 'openComment'}`, {
                          id: String(row.id),
                        }),
                      ctx,
                    )
                  }
                >
                  {open ? t('wxpub.closeComments') : t('wxpub.openComments')}
                </Button>
              )}
              {can('wxComment') && (
                <Button
                  type="link"
                  size="small"
                  aria-label={`${t('wxpub.comments')} ${name}`}
                  onClick={() => setShowing(row)}
                >
                  {t('wxpub.comments')}
                </Button>
              )}
            </Space>
          );
        }}
      />
      <Drawer
        open={!!showing}
        width={880}
        title={showing ? t('wxpub.commentsOf', { title: titleOf(showing) }) : ''}
        onClose={() => setShowing(null)}
        destroyOnHidden
      >
        {showing && <Comments article={showing} />}
      </Drawer>
    </>
  );
}
