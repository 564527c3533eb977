/**
 * The list page of a village resource: the generic CrudPage with what village records add — the names of
 * referenced villagers in the table, yes/no switches as words, photos uploaded and shown as thumbnails, and
 * the Excel buttons of resources that declare them.
 */
import './i18n';
import { type FieldDef, type ResourceDef, refLabelKey } from '@smart/contracts';
import { Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type CrudPageProps, type FieldOverride, type Row } from '../../platform/crud/CrudPage';
import { ExcelToolbar } from '../../platform/crud/ExcelToolbar';
import { ImageCell, ImageField } from './ImageField';

export function VillageCrudPage(props: CrudPageProps) {
  const { def } = props;
  const { t } = useTranslation();
  const render: Record<string, (value: unknown, row: Row) => ReactNode> = {};
  const fields: Record<string, FieldOverride> = {};
  for (const f of def.fields) {
    if (f.type === 'ref' || f.type === 'refs')
      render[f.name] = (_v, row) => (row[refLabelKey(f)] as string) || null;
    if (f.type === 'switch')
      render[f.name] = (v) =>
        Number(v) === 1 ? <Tag color="orange">{t('village.yes')}</Tag> : <span>{t('village.no')}</span>;
    if (f.type === 'image') {
      render[f.name] = (v) => <ImageCell value={v} />;
      fields[f.name] = { control: (p) => <ImageField {...p} field={f as FieldDef} /> };
    }
  }
  return (
    <CrudPage
      {...props}
      columns={{ ...props.columns, render: { ...render, ...props.columns?.render } }}
      fields={{ ...fields, ...props.fields }}
      toolbar={(ctx) => (
        <>
          {def.excel && <ExcelToolbar def={def} ctx={ctx} />}
          {props.toolbar?.(ctx)}
        </>
      )}
    />
  );
}

/** A lazy page module for a definition. */
export const pageOf = (def: ResourceDef) => () => <VillageCrudPage def={def} />;
