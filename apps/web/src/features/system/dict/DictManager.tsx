/**
 * Dictionary management (spec §2, §3, §5): the dictionaries (GET <dict>/parent-list, paged) and the entries of
 * one of them as a tree (GET <dict>/child-list?parentId=), both on the generic page. Laid out with the
 * entries in a dialog (/system/dict, /system/dictbiz), side by side (/dict-horizontal) or one above the other
 * (/dict-vertical).
 */
import '../i18n';
import { SettingOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Modal, Select, TreeSelect } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type FieldOverride, type Row } from '../../../platform/crud/CrudPage';
import { findTitle } from '../../../platform/crud/controls';
import type { TreeOption } from '../../../platform/crud/dict';
import type { FieldControlProps } from '../../../platform/crud/fields';
import { subtreeKeys } from '../../../platform/crud/tree';
import { isOn } from '../../../platform/crud/values';
import { getData } from '../../../platform/http/client';
import { useLanguage } from '../../../platform/i18n';
import { type DictDefs, type DictKind, dictDefs } from './defs';

export type DictLayout = 'dialog' | 'horizontal' | 'vertical';

/**
 * isSealed: 0 否 / 1 是, a select rather than the switch of its kind, so that it can be left empty and say
 * so (请选择封存); the form holds the switch's value (on / off), or '' once cleared.
 */
function SealedSelect({ value, onChange, id, disabled, placeholder }: FieldControlProps) {
  const { t } = useTranslation();
  return (
    <Select
      id={id}
      aria-label={placeholder}
      placeholder={placeholder}
      disabled={disabled}
      allowClear
      style={{ width: '100%' }}
      value={value === undefined || value === null || value === '' ? undefined : isOn(value) ? '1' : '0'}
      onChange={(v) => onChange?.(v ?? '')}
      options={[
        { value: '0', label: t('common.no') },
        { value: '1', label: t('common.yes') },
      ]}
    />
  );
}

function SealedLabel({ value }: { value: unknown }) {
  const { t } = useTranslation();
  return <>{Number(value) === 1 ? t('common.yes') : t('common.no')}</>;
}

/** The parent of an entry: the dictionary itself or one of its entries (optional: empty = the dictionary). */
function DictParentSelect({
  defs,
  dict,
  exclude,
  value,
  onChange,
  id,
  disabled,
  placeholder,
}: FieldControlProps & { defs: DictDefs; dict: Row }) {
  const code = String(dict.code);
  // the server titles the nodes in the request's language
  const language = useLanguage((s) => s.language);
  const tree = useQuery({
    queryKey: ['tree', defs.child.key, code, language],
    queryFn: () => getData<TreeOption[]>(`${defs.base}/tree`, { code }),
  });
  const data = useMemo(() => {
    const excluded = new Set(exclude ? subtreeKeys(tree.data, exclude) : []);
    const mark = (nodes: TreeOption[]): TreeOption[] =>
      nodes.map((n) => ({
        ...n,
        disabled: excluded.has(n.value),
        children: n.children?.length ? mark(n.children) : undefined,
      }));
    return mark(tree.data ?? []);
  }, [tree.data, exclude]);
  return (
    <TreeSelect
      id={id}
      aria-label={placeholder}
      placeholder={placeholder}
      disabled={disabled}
      allowClear
      showSearch
      treeNodeFilterProp="title"
      treeDefaultExpandAll
      loading={tree.isLoading}
      style={{ width: '100%' }}
      value={value ? String(value) : undefined}
      onChange={(v) => onChange?.(v ?? '')}
      treeData={data}
      fieldNames={{ label: 'title', value: 'value', children: 'children' }}
    />
  );
}

/** The parent entry's value (the view dialog); the dictionary itself when it has none above it. */
function DictParentName({ defs, dict, value }: { defs: DictDefs; dict: Row; value: unknown }) {
  const code = String(dict.code);
  const tree = useQuery({
    queryKey: ['tree', defs.child.key, code],
    queryFn: () => getData<TreeOption[]>(`${defs.base}/tree`, { code }),
  });
  return <>{findTitle(tree.data, String(value)) ?? String(dict.dictValue ?? value)}</>;
}

const sealedOverride: FieldOverride = { control: (p) => <SealedSelect {...p} /> };

/** The entries of one dictionary as a tree. */
function DictEntries({ defs, dict }: { defs: DictDefs; dict: Row }) {
  return (
    <CrudPage
      key={dict.id}
      def={defs.child}
      listUrl={`${defs.base}/child-list`}
      fixedFilters={{ parentId: dict.id }}
      search={false}
      rowName={(row) => String(row.dictValue)}
      columns={{ createTime: false, render: { isSealed: (v) => <SealedLabel value={v} /> } }}
      addDefaults={{ code: dict.code, parentId: dict.id }}
      fields={{
        code: { disabledIn: ['add', 'edit', 'view'] },
        isSealed: sealedOverride,
        parentId: {
          control: (p) => (
            <DictParentSelect
              {...p}
              defs={defs}
              dict={dict}
              exclude={p.mode === 'edit' ? p.row?.id : undefined}
            />
          ),
          view: (v) => <DictParentName defs={defs} dict={dict} value={v} />,
        },
      }}
      // an entry belongs to this dictionary; no parent chosen means directly below the dictionary
      beforeSubmit={(body) => ({ ...body, code: dict.code, parentId: body.parentId || dict.id })}
    />
  );
}

export function DictManager({ kind, layout }: { kind: DictKind; layout: DictLayout }) {
  const { t } = useTranslation();
  const defs = useMemo(() => dictDefs(kind), [kind]);
  const [current, setCurrent] = useState<Row | null>(null);

  const parents = (
    <CrudPage
      def={defs.parent}
      listUrl={`${defs.base}/parent-list`}
      dateRange={false}
      rowName={(row) => String(row.dictValue)}
      columns={{ createTime: false, render: { isSealed: (v) => <SealedLabel value={v} /> } }}
      fields={{ isSealed: sealedOverride }}
      rowActions={(row) => (
        <Button
          type="link"
          size="small"
          icon={<SettingOutlined aria-hidden />}
          aria-pressed={layout === 'dialog' ? undefined : current?.id === row.id}
          onClick={() => setCurrent(row)}
        >
          {t('sys.dict.entries')}
        </Button>
      )}
    />
  );

  if (layout === 'dialog') {
    return (
      <>
        {parents}
        {current && (
          <Modal
            open
            title={`${t('sys.dict.entries')} · ${String(current.dictValue)}`}
            width={880}
            footer={null}
            onCancel={() => setCurrent(null)}
            destroyOnHidden
          >
            <DictEntries defs={defs} dict={current} />
          </Modal>
        )}
      </>
    );
  }

  const entries: ReactNode = current ? (
    <section aria-label={`${t('sys.dict.entries')} · ${String(current.dictValue)}`}>
      <Card
        variant="borderless"
        size="small"
        title={`${t('sys.dict.entries')} · ${String(current.dictValue)}`}
      >
        <DictEntries defs={defs} dict={current} />
      </Card>
    </section>
  ) : (
    <Card variant="borderless">
      <Empty description={t('sys.dict.pickOne')} />
    </Card>
  );
  return (
    <div
      style={{
        display: 'flex',
        flexDirection: layout === 'horizontal' ? 'row' : 'column',
        gap: 16,
        alignItems: 'stretch',
      }}
    >
      <div style={{ flex: 1, minWidth: 0 }}>{parents}</div>
      <div style={{ flex: 1, minWidth: 0 }}>{entries}</div>
    </div>
  );
}
