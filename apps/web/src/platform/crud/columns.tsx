/** The list page's columns: each list field rendered by its kind (or the screen's renderer), then the row actions. */
import { DeleteOutlined, DownOutlined, EditOutlined, EyeOutlined, SubnodeOutlined } from '@ant-design/icons';
import type { FieldDef } from '@smart/contracts/core';
import { Button, Dropdown, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { kindOf } from './kinds';
import type { CrudContext, CrudPageProps, Row } from './types';
import { EMPTY, isEmptyValue } from './values';

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
  rowName: (row: Row) => string;
  ctx: CrudContext;
}

/** Row actions shown inline; past this many, the first two stay and the rest fold into 更多. */
export const INLINE_ACTIONS = 3;

/**
 * A row's actions: 查看 and 修改 inline; 新增下级, 删除 and the screen's own actions beside them while there are
 * at most INLINE_ACTIONS in all, else folded into a 更多 dropdown — so the fixed 操作 column stays narrow
 * and hides no cell of the row, on every list alike.
 */
function RowActions({ row, actions }: { row: Row; actions: RowActionHandlers }) {
  const { t } = useTranslation();
  const { perms, addChild, rowActions, rowName, ctx } = actions;
  const link = (key: string, label: string, icon: ReactNode, onClick: () => void, danger = false) => (
    <Button key={key} type="link" size="small" danger={danger} icon={icon} onClick={onClick}>
      {label}
    </Button>
  );
  const first = [
    perms.view && link('view', t('common.view'), <EyeOutlined aria-hidden />, () => actions.onView(row)),
    perms.edit && link('edit', t('common.edit'), <EditOutlined aria-hidden />, () => actions.onEdit(row)),
  ].filter(Boolean) as ReactNode[];
  const screen = rowActions?.(row, ctx);
  const rest = [
    addChild &&
      link('child', t('crud.addChild'), <SubnodeOutlined aria-hidden />, () => actions.onAddChild(row)),
    perms.del &&
      link('delete', t('common.delete'), <DeleteOutlined aria-hidden />, () => actions.onDelete(row), true),
    screen === null || screen === undefined || screen === false ? null : (
      <Fragment key="screen">{screen}</Fragment>
    ),
  ].filter(Boolean) as ReactNode[];
  const fold = first.length + rest.length > INLINE_ACTIONS;
  return (
    <Space size={0} role="group" aria-label={t('common.rowActions', { name: rowName(row) })}>
      {first}
      {fold ? (
        <Dropdown
          trigger={['click']}
          popupRender={() => (
            <div
              className="crud-more-actions"
              style={{
                display: 'flex',
                flexDirection: 'column',
                alignItems: 'flex-start',
                padding: 4,
                background: 'var(--ant-color-bg-elevated, #fff)',
                borderRadius: 8,
                boxShadow:
                  '0 6px 16px 0 rgba(0,0,0,0.08), 0 3px 6px -4px rgba(0,0,0,0.12), 0 9px 28px 8px rgba(0,0,0,0.05)',
              }}
            >
              {rest}
            </div>
          )}
        >
          <Button type="link" size="small" aria-haspopup="menu">
            {t('crud.more')} <DownOutlined aria-hidden />
          </Button>
        </Dropdown>
      ) : (
        rest
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
  const { perms, addChild, rowActions } = actions;
  const hasActions = perms.view || perms.edit || perms.del || addChild || !!rowActions;
  return [
    ...fields.map((f) => ({
      key: f.name,
      dataIndex: f.name,
      title: f.label[lang],
      ellipsis: f.type === 'textarea',
      align: kindOf(f).align,
      render: cellOf(f, options),
    })),
    ...(options?.extra ?? []).map(withEmpty),
    ...(options?.createTime === false
      ? []
      : [withEmpty({ key: 'createTime', dataIndex: 'createTime', title: t('crud.createTime'), width: 170 })]),
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
