/** The list page's columns: each list field rendered by its kind (or the screen's renderer), then the row actions. */
import { DeleteOutlined, EditOutlined, EyeOutlined, SubnodeOutlined } from '@ant-design/icons';
import type { FieldDef } from '@smart/contracts/core';
import { Button, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
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

/** Rebuilt on each render: cheap, and always in the current language with the current grants. */
export function useColumns(
  fields: FieldDef[],
  options: CrudPageProps['columns'],
  actions: RowActionHandlers,
): ColumnsType<Row> {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { perms, addChild, rowActions, rowName, ctx } = actions;
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
            render: (_: unknown, row: Row) => (
              <Space size={0} wrap role="group" aria-label={t('common.rowActions', { name: rowName(row) })}>
                {perms.view && (
                  <Button
                    type="link"
                    size="small"
                    icon={<EyeOutlined aria-hidden />}
                    onClick={() => actions.onView(row)}
                  >
                    {t('common.view')}
                  </Button>
                )}
                {perms.edit && (
                  <Button
                    type="link"
                    size="small"
                    icon={<EditOutlined aria-hidden />}
                    onClick={() => actions.onEdit(row)}
                  >
                    {t('common.edit')}
                  </Button>
                )}
                {addChild && (
                  <Button
                    type="link"
                    size="small"
                    icon={<SubnodeOutlined aria-hidden />}
                    onClick={() => actions.onAddChild(row)}
                  >
                    {t('crud.addChild')}
                  </Button>
                )}
                {perms.del && (
                  <Button
                    type="link"
                    size="small"
                    danger
                    icon={<DeleteOutlined aria-hidden />}
                    onClick={() => actions.onDelete(row)}
                  >
                    {t('common.delete')}
                  </Button>
                )}
                {rowActions?.(row, ctx)}
              </Space>
            ),
          },
        ]
      : []),
  ];
}
