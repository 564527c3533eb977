/**
 * /authority/datascope and /authority/apiscope — scopes per menu: the menu tree on the left, the chosen
 * menu's scopes on the right (the generic page filtered by menuId). A data scope of type 5 (自定义) is a
 * condition built from a field of its resource, an operator and a value: never free SQL.
 */
import { placeholderOf } from '@smart/contracts/placeholder';
import '../system/i18n';
import { apiScopeResource, dataScopeResource } from '@smart/contracts/admin';
import type { ResourceDef } from '@smart/contracts/core';
import { RESOURCES, resourceByKey } from '@smart/contracts/registry';
import { Card, Empty, Form, Input, Select, Space, Spin, Tree, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { switcherIcon } from '../../platform/crud/a11y';
import { CrudPage, type FieldOverride } from '../../platform/crud/CrudPage';
import { type TreeOption, useOptionTree } from '../../platform/crud/dict';
import type { FieldControlProps } from '../../platform/crud/fields';
import { branchKeys, stripEmptyChildren } from '../../platform/crud/tree';
import { currentLanguage } from '../../platform/i18n';
import {
  CALLER_VALUES,
  CONDITION_OPS,
  type ConditionOp,
  formatCondition,
  isValidCondition,
  parseCondition,
  scopeFields,
  valueText,
} from './condition';

const CUSTOM = '5';

function filterTree(nodes: TreeOption[], keyword: string): TreeOption[] {
  if (!keyword) return nodes;
  const out: TreeOption[] = [];
  for (const n of nodes) {
    const children = filterTree(n.children ?? [], keyword);
    if (n.title.toLowerCase().includes(keyword.toLowerCase()) || children.length)
      out.push({
        ...n,
        children: n.title.toLowerCase().includes(keyword.toLowerCase()) ? n.children : children,
      });
  }
  return out;
}

function MenuPanel({ value, onChange }: { value?: TreeOption; onChange: (n?: TreeOption) => void }) {
  const { t } = useTranslation();
  const menus = useOptionTree('menu');
  const [keyword, setKeyword] = useState('');
  const nodes = useMemo(
    () => stripEmptyChildren(filterTree(menus.data ?? [], keyword.trim())),
    [menus.data, keyword],
  );
  return (
    <Card
      variant="borderless"
      size="small"
      title={<span id="scope-menu-title">{t('sys.scope.menus')}</span>}
      style={{ width: 280, flex: 'none' }}
      styles={{ body: { maxHeight: 'calc(100vh - 240px)', overflow: 'auto' } }}
    >
      <Input.Search
        allowClear
        placeholder={t('sys.scope.searchMenu')}
        aria-label={t('sys.scope.searchMenu')}
        onChange={(e) => setKeyword(e.target.value)}
        style={{ marginBottom: 8 }}
      />
      {menus.isLoading ? (
        <Spin />
      ) : (
        <Tree
          switcherIcon={switcherIcon}
          key={keyword ? `k:${keyword}` : 'all'}
          aria-labelledby="scope-menu-title"
          blockNode
          defaultExpandedKeys={keyword ? branchKeys(nodes) : nodes.map((n) => n.key)}
          selectedKeys={value ? [value.key] : []}
          onSelect={(_, info) => onChange(info.selected ? (info.node as TreeOption) : undefined)}
          treeData={nodes}
          fieldNames={{ title: 'title', key: 'key', children: 'children' }}
        />
      )}
    </Card>
  );
}

/** resourceCode of a data scope: one of the resources the server knows (its data-scope code is its key). */
function ResourceSelect({ field, value, onChange, id, disabled }: FieldControlProps) {
  const lang = currentLanguage();
  const placeholder = placeholderOf(field, lang);
  return (
    <Select
      id={id}
      aria-label={placeholder}
      placeholder={placeholder}
      disabled={disabled}
      showSearch
      optionFilterProp="label"
      allowClear
      style={{ width: '100%' }}
      value={value ? String(value) : undefined}
      onChange={(v) => onChange?.(v ?? '')}
      options={RESOURCES.map((r) => ({ value: r.key, label: `${r.label[lang]} (${r.key})` }))}
    />
  );
}

/** The custom condition: field of the chosen resource + operator + value → {"field","op","value"}. */
function ConditionEditor({ value, onChange, id, disabled }: FieldControlProps) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const form = Form.useFormInstance();
  const resourceCode = Form.useWatch('resourceCode', form) as string | undefined;
  const target: ResourceDef | undefined = resourceCode ? resourceByKey.get(resourceCode) : undefined;
  const stored = parseCondition(value);
  const [field, setField] = useState<string | undefined>(stored?.field);
  const [op, setOp] = useState<ConditionOp>(stored?.op ?? 'eq');
  const [text, setText] = useState(stored ? valueText(stored) : '');
  const emit = (f: string | undefined, o: ConditionOp, v: string) =>
    onChange?.(f ? formatCondition(f, o, v) : '');
  const fields = scopeFields(target);
  if (!target)
    return (
      <Typography.Text type="secondary" id={id}>
        {t('sys.scope.pickResourceFirst')}
      </Typography.Text>
    );
  return (
    <div id={id}>
      <Space.Compact style={{ width: '100%' }}>
        <Select
          aria-label={t('sys.scope.field')}
          placeholder={t('sys.scope.field')}
          disabled={disabled}
          style={{ width: '36%' }}
          value={field}
          onChange={(f: string) => {
            setField(f);
            emit(f, op, text);
          }}
          options={fields.map((f) => ({ value: f.name, label: `${f.label[lang]} (${f.name})` }))}
        />
        <Select
          aria-label={t('sys.scope.operator')}
          disabled={disabled}
          style={{ width: '24%' }}
          value={op}
          onChange={(o: ConditionOp) => {
            setOp(o);
            emit(field, o, text);
          }}
          options={CONDITION_OPS.map((o) => ({ value: o, label: t(`sys.scope.op.${o}`) }))}
        />
        <Input
          aria-label={t('sys.scope.value')}
          placeholder={t(op === 'in' ? 'sys.scope.valuesHint' : 'sys.scope.value')}
          disabled={disabled}
          style={{ width: '40%' }}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            emit(field, op, e.target.value);
          }}
        />
      </Space.Compact>
      {!disabled && (
        <Space size={4} style={{ marginTop: 6 }} wrap>
          <Typography.Text type="secondary">{t('sys.scope.caller')}</Typography.Text>
          {CALLER_VALUES.map((v) => (
            <Typography.Link
              key={v}
              onClick={() => {
                setText(v);
                emit(field, op, v);
              }}
            >
              {t(v.includes('user') ? 'sys.scope.currentUser' : 'sys.scope.currentDept')}
            </Typography.Link>
          ))}
        </Space>
      )}
      {value ? (
        <Typography.Text code style={{ display: 'block', marginTop: 6 }}>
          {String(value)}
        </Typography.Text>
      ) : null}
    </div>
  );
}

export function ScopePage({ kind }: { kind: 'data' | 'api' }) {
  const { t } = useTranslation();
  const def = kind === 'data' ? dataScopeResource : apiScopeResource;
  const [menu, setMenu] = useState<TreeOption>();
  const dataFields: Record<string, FieldOverride> = {
    resourceCode: {
      control: (p) => <ResourceSelect {...p} />,
      // the view names the resource as the select does
      view: (v) => {
        const r = resourceByKey.get(String(v));
        return r ? `${r.label[currentLanguage()]} (${r.key})` : String(v);
      },
    },
    scopeValue: {
      control: (p) => <ConditionEditor {...p} />,
      hidden: (values) => String(values.scopeType ?? '') !== CUSTOM,
      rules: [
        ({ getFieldValue }) => ({
          validator: async (_, v) => {
            if (String(getFieldValue('scopeType') ?? '') !== CUSTOM) return;
            const target = resourceByKey.get(String(getFieldValue('resourceCode') ?? ''));
            if (!isValidCondition(v, target)) throw new Error(t('sys.scope.conditionRequired'));
          },
        }),
      ],
    },
  };
  return (
    <CrudPage
      key={kind}
      def={def}
      side={<MenuPanel value={menu} onChange={setMenu} />}
      fixedFilters={{ menuId: menu?.id ?? '' }}
      enabled={!!menu}
      idle={<Empty description={t('sys.scope.pickMenu')} />}
      addDefaults={menu ? { menuId: menu.id } : undefined}
      rowName={(row) => String(row.scopeName)}
      fields={kind === 'data' ? dataFields : undefined}
      // only a custom scope carries a condition
      beforeSubmit={(body) =>
        kind === 'data' && String(body.scopeType) !== CUSTOM ? { ...body, scopeValue: '' } : body
      }
    />
  );
}

export function DataScopePage() {
  return <ScopePage kind="data" />;
}

export function ApiScopePage() {
  return <ScopePage kind="api" />;
}
