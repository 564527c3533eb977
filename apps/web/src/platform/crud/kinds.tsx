/**
 * The field kinds of the web: for every FieldType of the contracts, one entry that owns how a field of that
 * kind is edited (the add / edit dialog's control), searched (the search form's control), listed (the
 * table cell) and read (the view dialog). `Record<FieldType, KindUi>`: a new FieldType fails the type check
 * until it has its entry here. fields.tsx, the columns and the dialogs all go through KINDS.
 */

import { type FieldDef, type FieldType, fieldKind, refLabelKey } from '@smart/contracts/core';
import { isPickedField } from '@smart/contracts/placeholder';
import { unitIn } from '@smart/contracts/units';
import { Tag } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { md5Hex } from '../md5';
import {
  CodeAreaControl,
  contextTitle,
  DateControl,
  DateRangeControl,
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
import { FileLinks, FilesCount, FilesField } from './FilesField';
import { LineSketch, LineWithLength, PointView, PolygonSketch } from './GeoViews';
import { polygonText } from './geo';
import { ImageCell, ImageField, ImageThumbs } from './ImageField';
import { RefSelect } from './RefSelect';
import { RichTextEditor, RichTextView } from './RichTextEditor';
import type { FieldControlProps, Row } from './types';
import { JsonCell, JsonView, NumberText, VideoLink, VideoView } from './ValueViews';
import { VideoCell, VideoField, VideoPlayer } from './VideoField';
import {
  dateRangeText,
  dateRangeToForm,
  dateRangeToWire,
  htmlToText,
  isOn,
  prettyJson,
  splitList,
  switchFilterToWire,
  switchToWire,
} from './values';

type Render = (value: unknown, row: Row, field: FieldDef) => ReactNode;
type Control = (props: FieldControlProps) => ReactNode;

export interface KindUi {
  /** the add / edit dialog's control */
  control: Control;
  /** the search form's control */
  search: Control;
  /** a table cell */
  cell: Render;
  /** the column's alignment: numbers right, so their digits line up (default: left) */
  align?: 'right';
  /** the view dialog's read-only value (never called with an empty value; `null`: the field is not shown) */
  view: Render;
  /** a record's non-empty value → the form's value (default: as is) */
  toForm?: (value: unknown, field: FieldDef) => unknown;
  /** the form's value (not null) → the body's value (default: as is; dates and lists are formatted first) */
  toWire?: (value: unknown, field: FieldDef) => unknown;
  /** the search form's value (not null) → the query's value (default: toWire) */
  toFilter?: (value: unknown, field: FieldDef) => unknown;
}

// an empty value (a date never set answers null) is an empty cell (the columns show EMPTY), never the word
// null; a code of a catalogue in code (`labels`: an alarm's metric) reads as its label
const plain: Render = (v, _row, f) => {
  if (v === null || v === undefined) return '';
  const label = f?.labels?.[String(v)];
  if (label) return label[currentLanguage()];
  return typeof v === 'object' ? JSON.stringify(v) : (v as ReactNode);
};
const multiline: Render = (v) => <span style={{ whiteSpace: 'pre-wrap' }}>{String(v)}</span>;
const asDate = (v: unknown) => dayjs(String(v));
const labelOf = (f: FieldDef) => f.label[currentLanguage()];
/** the kind's hint as a placeholder, where it says more than 请输入…: `经度,纬度,如 112.938814,28.228209` */
const hintOf = (f: FieldDef) => fieldKind(f).excelHint?.(f)?.[currentLanguage()];

/**
 * A text in the page's language: in English, its English twin where the definition names one and it is
 * set (a seeded menu's or role's name), and a unit word through the unit words (亩 → mu); else as written.
 */
const textValue: Render = (v, row, f) => {
  if (currentLanguage() === 'en') {
    const twin = f.english ? row[f.english] : undefined;
    if (typeof twin === 'string' && twin.trim()) return twin;
    if (f.unitWord && typeof v === 'string') return unitIn('en', v);
  }
  return plain(v, row, f);
};

/** Typed kinds whose value is shown as it is (text, numbers, phone numbers…). */
const typed = (control: Control, extra: Partial<KindUi> = {}): KindUi => ({
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
  if (!isOn(value)) return <span>{t('common.no')}</span>;
  // a yes is good news where it stands out: a positive colour, never a warning's orange
  return tag ? <Tag color="green">{t('common.yes')}</Tag> : <span>{t('common.yes')}</span>;
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
          id === '0' && String(field.default) === '0'
            ? t('crud.topLevel')
            : ((field.tree === 'menu' ? contextTitle(data, id) : findTitle(data, id)) ?? id),
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
  control: (p) => <DictSelect {...p} />,
  search: (p) => <DictSelect {...p} />,
  cell: (v, _row, f) => <DictLabel code={f.dict} value={v} />,
  view: (v, _row, f) => <DictLabel code={f.dict} value={v} />,
};

/** A number (int, decimal, money), with the unit the field (or, for money, the kind) is in. */
const number: KindUi = typed((p) => <NumberControl {...p} />, {
  align: 'right',
  cell: (v, _row, f) => <NumberText field={f} value={v} withUnit={false} />,
  view: (v, _row, f) => <NumberText field={f} value={v} />,
});

/** JSON typed as text; the view shows it indented. */
const jsonKind = (extra: Partial<KindUi>): KindUi => ({
  control: (p) => <CodeAreaControl {...p} />,
  search: (p) => <TextControl {...p} />,
  cell: (v) => <JsonCell value={v} />,
  view: (v, _row, f) => <JsonView value={v} label={labelOf(f)} />,
  toForm: prettyJson,
  ...extra,
});

/**
 * A text in a list is the one cell that wraps (`.crud-list .crud-text`), past 14 characters' width or when
 * the page is narrow, instead of widening its column: a long name keeps the list beside the fixed 操作
 * column at 1440 px, and is read whole, on two lines. A short one (a person's name, a code) stays on one
 * line even in a list too wide for its page.
 */
const WRAPS_FROM = 8;
const wrapping =
  (render: Render): Render =>
  (v, row, f) => {
    const text = render(v, row, f);
    return typeof text !== 'string' || Array.from(text).length <= WRAPS_FROM ? (
      text
    ) : (
      <span className="crud-text" style={{ display: 'inline-block', maxWidth: '14em' }}>
        {text}
      </span>
    );
  };
const textCell = wrapping(textValue);
const refCell = wrapping(refName);

/**
 * A time in a list may break between its day and its clock time, never inside either: a list that is
 * short of room shows `2026-11-28` over `23:45:00` (`.crud-list .crud-text` lets it wrap at that space).
 */
export function TimeCell({ value }: { value: unknown }) {
  const [day, ...rest] = String(value).split(' ');
  if (!rest.length) return <>{day}</>;
  return (
    <span className="crud-text">
      <span style={{ whiteSpace: 'nowrap' }}>{day}</span>{' '}
      <span style={{ whiteSpace: 'nowrap' }}>{rest.join(' ')}</span>
    </span>
  );
}

const dateKind: KindUi = {
  control: (p) => <DateControl {...p} />,
  search: (p) => <DateControl {...p} />,
  cell: (v) => <TimeCell value={v} />,
  view: plain,
  toForm: asDate,
};

export const KINDS: Record<FieldType, KindUi> = {
  text: typed((p) => <TextControl {...p} />, { cell: textCell, view: textValue }),
  textarea: typed((p) => <TextAreaControl {...p} />, {
    // one line is enough to search in
    search: (p) => <TextControl {...p} />,
    view: multiline,
  }),
  int: number,
  decimal: number,
  money: { ...number, toForm: (v) => Number(v) },
  date: dateKind,
  datetime: dateKind,
  dateRange: {
    control: (p) => <DateRangeControl {...p} />,
    search: (p) => <DateRangeControl {...p} />,
    // in a list the two days stand one above the other: the column stays narrow
    cell: (v) => (
      <span style={{ display: 'inline-block', maxWidth: 110, whiteSpace: 'normal' }}>{dateRangeText(v)}</span>
    ),
    view: dateRangeText,
    toForm: dateRangeToForm,
    toWire: dateRangeToWire,
  },
  dict: { ...dictKind, toForm: (v) => String(v) },
  dictMulti: { ...dictKind, toForm: splitList },
  switch: {
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
  gbDeviceId: typed((p) => <TextControl {...p} hint={hintOf(p.field)} />),
  creditCode: typed((p) => <TextControl {...p} hint={hintOf(p.field)} />),
  ids: {
    control: (p) => <TreeIds {...p} />,
    search: (p) => <TreeIds {...p} />,
    cell: (v, _row, f) => <TreeTitles field={f} value={v} />,
    view: (v, _row, f) => <TreeTitles field={f} value={v} />,
    toForm: splitList,
  },
  // a record's name is free text too (湘丰农业发展有限公司): it wraps as a text does
  ref: { control: refControl, search: refControl, cell: refCell, view: refName },
  refs: { control: refControl, search: refControl, cell: refCell, view: refName },
  image: {
    control: (p) => <ImageField {...p} />,
    search: (p) => <TextControl {...p} />,
    cell: (v, _row, f) => <ImageCell value={v} label={f.label[currentLanguage()]} />,
    view: (v, _row, f) => <ImageThumbs value={v} label={f.label[currentLanguage()]} />,
  },
  files: {
    control: (p) => <FilesField {...p} />,
    search: (p) => <TextControl {...p} />,
    cell: (v) => <FilesCount value={v} />,
    view: (v) => <FileLinks value={v} />,
  },
  geoPoint: typed((p) => <TextControl {...p} hint={hintOf(p.field)} />, {
    search: (p) => <TextControl {...p} />,
    view: (v) => <PointView value={v} />,
  }),
  polygon: jsonKind({
    // an example of the shape, one corner a line, says what to type
    control: (p) => (
      <CodeAreaControl
        {...p}
        hint={polygonText(String(p.field.example ?? fieldKind(p.field).sample(p.field, 0)))}
      />
    ),
    cell: (v) => <PolygonSketch value={v} width={48} height={32} />,
    view: (v) => <PolygonSketch value={v} showArea />,
    toForm: polygonText,
  }),
  polyline: jsonKind({
    // typed as text, one point a line, its length in km below it as it changes
    control: (p) => (
      <LineWithLength value={p.value}>
        <CodeAreaControl
          {...p}
          hint={polygonText(String(p.field.example ?? fieldKind(p.field).sample(p.field, 0)))}
        />
      </LineWithLength>
    ),
    cell: (v) => <LineSketch value={v} width={48} height={32} />,
    view: (v) => <LineSketch value={v} showLength />,
    toForm: polygonText,
  }),
  json: jsonKind({}),
  videoUrl: typed((p) => <TextControl {...p} hint={hintOf(p.field)} />, {
    search: (p) => <TextControl {...p} />,
    cell: (v) => <VideoLink value={v} />,
    view: (v, _row, f) => <VideoView value={v} label={labelOf(f)} />,
  }),
  video: {
    control: (p) => <VideoField {...p} />,
    search: (p) => <TextControl {...p} />,
    cell: (v) => <VideoCell value={v} />,
    view: (v, _row, f) => <VideoPlayer sources={[v]} label={labelOf(f)} />,
  },
  richText: {
    control: (p) => <RichTextEditor {...p} />,
    search: (p) => <TextControl {...p} />,
    cell: (v) => htmlToText(v),
    view: (v) => <RichTextView value={v} />,
  },
  // typed when a record is added, sent as its md5; never listed, never shown
  password: {
    control: (p) => <PasswordControl {...p} />,
    search: () => null,
    cell: () => null,
    view: () => null,
    toWire: (v) => (typeof v === 'string' && v !== '' ? md5Hex(v) : ''),
  },
};

export const kindOf = (f: Pick<FieldDef, 'type'>): KindUi => KINDS[f.type];

/** A field is picked (请选择…) rather than typed (请输入…): its kind says so (contracts), or it has options. */
/** picked, not typed (请选择…): the placeholder builder's own test (contracts `isPickedField`) */
export const isPicked = isPickedField;
