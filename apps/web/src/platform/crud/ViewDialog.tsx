/**
 * The view (查看) dialog: the record read fresh from the server, shown as labels and values — dictionary
 * words, reference names, 是 / 否, image thumbnails, dates as text, "—" (EMPTY) for nothing — never as a form.
 */
import type { FieldDef, ResourceDef } from '@smart/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Modal, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getData } from '../http/client';
import { currentLanguage } from '../i18n';
import { ChildView } from './ChildTable';
import { orEmpty } from './columns';
import { JsonTable } from './JsonTable';
import { kindOf } from './kinds';
import { resourceBase } from './query';
import type { CrudPageProps, FieldOverride, Row } from './types';
import { EMPTY, isEmptyValue } from './values';

/**
 * The fields a view shows: those of the form and those of the list — so what the server computes and lists
 * (a plot's area, an income, a weighted total, a place) is there too — and computed values the definition
 * declares `view: true` (a distribution, the scores per rule); never a password or a secret, nor a field
 * declared `view: false`.
 */
export const viewFields = (def: ResourceDef): FieldDef[] =>
  def.fields.filter(
    (f) =>
      f.type !== 'password' &&
      !f.secret &&
      f.view !== false &&
      (f.view === true || (f.form !== false && !f.readOnly) || (f.list !== false && !f.detailOnly)),
  );

/** A record read fresh from the server (`<base>/detail`), as labels and values. */
export function RecordView({
  def,
  id,
  columns = 2,
  overrides,
  render,
}: {
  def: ResourceDef;
  id: string;
  columns?: number;
  overrides?: Record<string, FieldOverride>;
  render?: NonNullable<CrudPageProps['columns']>['render'];
}) {
  const lang = currentLanguage();
  const detail = useQuery({
    queryKey: ['crud-detail', def.key, id],
    queryFn: () => getData<Row>(`${resourceBase(def)}/detail`, { id }),
    gcTime: 0,
  });
  const record = detail.data;
  const value = (f: FieldDef, r: Row): ReactNode => {
    const v = r[f.name];
    if (isEmptyValue(v)) return EMPTY;
    const custom = overrides?.[f.name]?.view ?? render?.[f.name];
    if (custom) return orEmpty(custom(v, r));
    // a JSON value the definition reads as a table (a distribution, scores per rule)
    if (f.table) return <JsonTable field={f} value={v} />;
    return orEmpty(kindOf(f).view(v, r, f));
  };
  if (!record) return <Spin spinning={detail.isLoading} />;
  const descriptions = (
    <Descriptions
      bordered
      size="small"
      column={columns}
      items={viewFields(def)
        .filter((f) => !overrides?.[f.name]?.hidden?.(record, 'view'))
        .map((f) => ({
          key: f.name,
          label: f.label[lang],
          span: f.span === 24 ? columns : 1,
          children: value(f, record),
        }))}
    />
  );
  if (!def.children?.length) return descriptions;
  return (
    <>
      {descriptions}
      {def.children.map((c) => (
        <ChildView key={c.name} decl={c} record={record} />
      ))}
    </>
  );
}

export function ViewDialog({
  def,
  row,
  overrides,
  render,
  onClose,
}: {
  def: ResourceDef;
  row: Row;
  overrides?: Record<string, FieldOverride>;
  /** the list's cell renderers: a screen's renderer of a column is also its value here */
  render?: NonNullable<CrudPageProps['columns']>['render'];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const width = def.dialogWidth ?? 880;
  return (
    <Modal
      open
      title={`${t('common.view')} · ${def.label[lang]}`}
      width={width}
      onCancel={onClose}
      destroyOnHidden
      footer={<Button onClick={onClose}>{t('common.close')}</Button>}
    >
      <RecordView def={def} id={row.id} columns={width < 700 ? 1 : 2} overrides={overrides} render={render} />
    </Modal>
  );
}
