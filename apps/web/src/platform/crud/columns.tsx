/** The list page's columns: each list field rendered by its kind (or the screen's renderer), then the row actions. */
import { DeleteOutlined, DownOutlined, SubnodeOutlined } from '@ant-design/icons';
import type { FieldDef } from '@smart/contracts/core';
import { Button, Dropdown, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { kindOf, TimeCell } from './kinds';
import type { CrudContext, CrudPageProps, Row } from './types';
import { columnTitle, EMPTY, isEmptyValue } from './values';

/** A rendered cell that shows nothing (null, undefined, '', false) shows EMPTY instead. */
export const orEmpty = (node: ReactNode): ReactNode =>
  node === null || node === undefined || node === '' || node === false ? EMPTY : node;

/**
 * A field's value as a table cell: the screen's renderer, else its kind's (an empty value: EMPTY, whatever
 * the kind, so no cell ever reads `null`).
 */
export function cellOf(f: FieldDef, render?: CrudPageProps['columns']) {
  const custom = render?.render?.[f.name];
  return (v: unknown, row: Row): ReactNode =>
    orEmpty(custom ? custom(v, row) : isEmptyValue(v) ? null : kindOf(f).cell(v, row, f));
}

/** A screen's extra column, its empty cells shown as EMPTY too. */
const withEmpty = (c: ColumnsType<Row>[number]): ColumnsType<Row>[number] => {
  const render = c.render;
  return {
    ...c,
    render: (v: unknown, row: Row, i: number) => orEmpty((render ? render(v, row, i) : v) as ReactNode),
  };
};

export interface RowActionHandlers {
  perms: { view: boolean; edit: boolean; del: boolean };
  /** 新增下级 of a tree row */
  addChild: boolean;
  onView: (row: Row) => void;
  onEdit: (row: Row) => void;
  onAddChild: (row: Row) => void;
  onDelete: (row: Row) => void;
  rowActions?: CrudPageProps['rowActions'];
  moreActions?: CrudPageProps['moreActions'];
  rowName: (row: Row) => string;
  ctx: CrudContext;
}

/** Row actions shown inline while a row has at most this many; past it, 新增下级, 删除 and the screen's menu fold into 更多. */
export const INLINE_ACTIONS = 3;

/** One action of a row's 更多 menu (a screen's: `CrudPageProps.moreActions`). */
export interface MoreAction {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  danger?: boolean;
  onClick: () => void;
}

/**
 * A row's actions, as text links (no icons: the fixed 操作 column stays narrow and covers no cell): 查看,
 * 编辑 and the screen's own verbs inline; 新增下级, 删除 and the screen's menu (`moreActions`) inline too
 * while the row has at most INLINE_ACTIONS in all, else folded into one 更多 dropdown — on every list alike.
 */
function RowActions({ row, actions }: { row: Row; actions: RowActionHandlers }) {
  const { t } = useTranslation();
  const { perms, addChild, rowActions, moreActions, rowName, ctx } = actions;
  const link = (a: MoreAction) => (
    <Button key={a.key} type="link" size="small" danger={a.danger} onClick={a.onClick}>
      {a.label}
    </Button>
  );
  const first: MoreAction[] = [
    ...(perms.view ? [{ key: 'view', label: t('common.view'), onClick: () => actions.onView(row) }] : []),
    ...(perms.edit ? [{ key: 'edit', label: t('common.edit'), onClick: () => actions.onEdit(row) }] : []),
  ];
  const screen = rowActions?.(row, ctx);
  const own = screen === null || screen === undefined || screen === false ? null : screen;
  const rest: MoreAction[] = [
    ...(addChild
      ? [
          {
            key: 'child',
            label: t('crud.addChild'),
            icon: <SubnodeOutlined aria-hidden />,
            onClick: () => actions.onAddChild(row),
          },
        ]
      : []),
    ...(perms.del
      ? [
          {
            key: 'delete',
            label: t('common.delete'),
            icon: <DeleteOutlined aria-hidden />,
            danger: true,
            onClick: () => actions.onDelete(row),
          },
        ]
      : []),
    ...(moreActions?.(row, ctx) ?? []),
  ];
  const fold = first.length + (own ? 1 : 0) + rest.length > INLINE_ACTIONS && rest.length > 1;
  return (
    <Space size={0} role="group" aria-label={t('common.rowActions', { name: rowName(row) })}>
      {first.map(link)}
      {own}
      {fold ? (
        <Dropdown
          trigger={['click']}
          menu={{
            items: rest.map((a) => ({ key: a.key, label: a.label, icon: a.icon, danger: a.danger })),
            onClick: ({ key }) => rest.find((a) => a.key === key)?.onClick(),
          }}
        >
          <Button type="link" size="small">
            {t('crud.more')} <DownOutlined aria-hidden />
          </Button>
        </Dropdown>
      ) : (
        rest.map(link)
      )}
    </Space>
  );
}

/** Rebuilt on each render: cheap, and always in the current language with the current grants. */
export function useColumns(
  fields: FieldDef[],
  options: CrudPageProps['columns'],
  actions: RowActionHandlers,
): ColumnsType<Row> {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { perms, addChild, rowActions, moreActions } = actions;
  const hasActions = perms.view || perms.edit || perms.del || addChild || !!rowActions || !!moreActions;
  return [
    ...fields.map((f) => ({
      key: f.name,
      dataIndex: f.name,
      title: columnTitle(f, lang),
      ellipsis: f.type === 'textarea',
      align: kindOf(f).align,
      render: cellOf(f, options),
    })),
    ...(options?.extra ?? []).map(withEmpty),
    ...(options?.createTime === false
      ? []
      : [
          // a time breaks between its day and its clock time when the list is short of room (TimeCell)
          withEmpty({
            key: 'createTime',
            dataIndex: 'createTime',
            title: t('crud.createTime'),
            render: (v: unknown) => (isEmptyValue(v) ? null : <TimeCell value={v} />),
          }),
        ]),
    ...(hasActions
      ? [
          {
            key: 'actions',
            title: t('common.actions'),
            fixed: 'right' as const,
            render: (_: unknown, row: Row) => <RowActions row={row} actions={actions} />,
          },
        ]
      : []),
  ];
}
