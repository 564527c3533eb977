/**
 * The field kinds of the web: for every FieldType of the contracts, one entry that owns how a field of that
 * kind is edited (the add / edit dialog's control), searched (the search form's control), listed (the
 * table cell) and read (the view dialog). `Record<FieldType, KindUi>`: a new FieldType fails the type check
 * until it has its entry here. fields.tsx, the columns and the dialogs all go through KINDS.
 */
import { type FieldDef, type FieldType, refLabelKey } from '@smart/contracts/core';
import { Tag } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { md5Hex } from '../md5';
import {
  DateControl,
  DictSelect,
  findTitle,
  NumberControl,
  PasswordControl,
  RefTree,
  SwitchControl,
  SwitchFilter,
  TextAreaControl,
  TextControl,
  TreeIds,
} from './controls';
import { useDict, useOptionTree } from './dict';
import { ImageCell, ImageField, ImageThumbs } from './ImageField';
import { RefSelect } from './RefSelect';
import type { FieldControlProps, Row } from './types';
import { isOn, splitList, switchFilterToWire, switchToWire } from './values';

type Render = (value: unknown, row: Row, field: FieldDef) => ReactNode;
type Control = (props: FieldControlProps) => ReactNode;

export interface KindUi {
  /** picked rather than typed: the placeholder says 请选择… instead of 请输入… */
  picked: boolean;
  /** the add / edit dialog's control */
  control: Control;
  /** the search form's control */
  search: Control;
  /** a table cell */
  cell: Render;
  /** the view dialog's read-only value (never called with an empty value; `null`: the field is not shown) */
  view: Render;
  /** a record's non-empty value → the form's value (default: as is) */
  toForm?: (value: unknown, field: FieldDef) => unknown;
  /** the form's value (not null) → the body's value (default: as is; dates and lists are formatted first) */
  toWire?: (value: unknown, field: FieldDef) => unknown;
  /** the search form's value (not null) → the query's value (default: toWire) */
  toFilter?: (value: unknown, field: FieldDef) => unknown;
}

const plain: Render = (v) => (typeof v === 'object' ? JSON.stringify(v) : (v as ReactNode));
const multiline: Render = (v) => <span style={{ whiteSpace: 'pre-wrap' }}>{String(v)}</span>;
const asDate = (v: unknown) => dayjs(String(v));

/** Typed kinds whose value is shown as it is (text, numbers, phone numbers…). */
const typed = (control: Control, extra: Partial<KindUi> = {}): KindUi => ({
  picked: false,
  control,
  search: control,
  cell: plain,
  view: plain,
  ...extra,
});

/** A dictionary value shown as its label (several keys: their labels joined). */
export function DictLabel({ code, value }: { code: string | undefined; value: unknown }) {
  const { data } = useDict(code);
  const keys = splitList(value);
  if (!keys.length) return null;
  return <>{keys.map((k) => data?.find((d) => d.dictKey === k)?.dictValue ?? k).join(', ')}</>;
}

/** 是 / 否 of a switch; in a table the yes stands out as a tag. */
export function YesNo({ value, tag }: { value: unknown; tag?: boolean }) {
  const { t } = useTranslation();
  if (!isOn(value)) return <span>{t('crud.no')}</span>;
  return tag ? <Tag color="orange">{t('crud.yes')}</Tag> : <span>{t('crud.yes')}</span>;
}

/** Titles of ids picked from an option tree (menus, roles, depts, posts, regions); '0' of a parent is the top. */
function TreeTitles({ field, value }: { field: FieldDef; value: unknown }) {
  const { t } = useTranslation();
  const { data } = useOptionTree(field.tree);
  const ids = splitList(value);
  return (
    <>
      {ids
        .map((id) =>
          id === '0' && String(field.default) === '0' ? t('crud.topLevel') : (findTitle(data, id) ?? id),
        )
        .join(', ')}
    </>
  );
}

/** A reference: the name the server answers beside the id (`<name>Name`), a tree's title, or the id. */
const refName: Render = (v, row, f) => {
  const name = row[refLabelKey(f)];
  if (typeof name === 'string' && name !== '') return name;
  if (f.tree) return <TreeTitles field={f} value={v} />;
  return f.ref ? null : plain(v, row, f);
};

const refControl: Control = (p) =>
  p.field.tree ? <RefTree {...p} /> : p.field.ref ? <RefSelect {...p} /> : <TextControl {...p} />;

const dictKind: KindUi = {
  picked: true,
  control: (p) => <DictSelect {...p} />,
  search: (p) => <DictSelect {...p} />,
  cell: (v, _row, f) => <DictLabel code={f.dict} value={v} />,
  view: (v, _row, f) => <DictLabel code={f.dict} value={v} />,
};

const dateKind: KindUi = {
  picked: true,
  control: (p) => <DateControl {...p} />,
  search: (p) => <DateControl {...p} />,
  cell: plain,
  view: plain,
  toForm: asDate,
};

export const KINDS: Record<FieldType, KindUi> = {
  text: typed((p) => <TextControl {...p} />),
  textarea: typed((p) => <TextAreaControl {...p} />, {
    // one line is enough to search in
    search: (p) => <TextControl {...p} />,
    view: multiline,
  }),
  int: typed((p) => <NumberControl {...p} />),
  decimal: typed((p) => <NumberControl {...p} />),
  date: dateKind,
  datetime: dateKind,
  dict: { ...dictKind, toForm: (v) => String(v) },
  dictMulti: { ...dictKind, toForm: splitList },
  switch: {
    picked: false,
    control: (p) => <SwitchControl {...p} />,
    search: (p) => <SwitchFilter {...p} />,
    cell: (v) => <YesNo value={v} tag />,
    view: (v) => <YesNo value={v} />,
    toForm: isOn,
    toWire: switchToWire,
    toFilter: switchFilterToWire,
  },
  mobile: typed((p) => <TextControl {...p} />),
  phone: typed((p) => <TextControl {...p} />),
  email: typed((p) => <TextControl {...p} />),
  idcard: typed((p) => <TextControl {...p} />),
  ids: {
    picked: true,
    control: (p) => <TreeIds {...p} />,
    search: (p) => <TreeIds {...p} />,
    cell: (v, _row, f) => <TreeTitles field={f} value={v} />,
    view: (v, _row, f) => <TreeTitles field={f} value={v} />,
    toForm: splitList,
  },
  ref: { picked: true, control: refControl, search: refControl, cell: refName, view: refName },
  refs: { picked: true, control: refControl, search: refControl, cell: refName, view: refName },
  image: {
    picked: false,
    control: (p) => <ImageField {...p} />,
    search: (p) => <TextControl {...p} />,
    cell: (v) => <ImageCell value={v} />,
    view: (v, _row, f) => <ImageThumbs value={v} label={f.label[currentLanguage()]} />,
  },
  // typed when a record is added, sent as its md5; never listed, never shown
  password: {
    picked: false,
    control: (p) => <PasswordControl {...p} />,
    search: () => null,
    cell: () => null,
    view: () => null,
    toWire: (v) => (typeof v === 'string' && v !== '' ? md5Hex(v) : ''),
  },
};

export const kindOf = (f: Pick<FieldDef, 'type'>): KindUi => KINDS[f.type];

/** A field is picked (请选择…) rather than typed (请输入…). */
export const isPicked = (f: FieldDef): boolean => kindOf(f).picked || !!f.dict || !!f.tree;
