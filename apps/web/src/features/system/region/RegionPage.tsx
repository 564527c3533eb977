/**
 * /system/region — China's administrative divisions: a lazily loaded tree (GET region/lazy-tree?parentCode=)
 * beside the chosen division's form (detail?code=, submit, remove?id=). Fields, labels, rules and messages
 * are the definition's (`regionResource`, @smart/contracts/system). A division's code extends its parent's;
 * the code names it, so it is fixed once saved.
 */
import '../i18n';
import '../../../platform/crud/i18n';
import { DeleteOutlined, PlusOutlined, SaveOutlined, SubnodeOutlined } from '@ant-design/icons';
import { checkField, type FieldDef, requiredMessage } from '@smart/contracts/core';
import { REGION_MESSAGES, REGION_ROOT, regionResource } from '@smart/contracts/system';
import { App, Button, Card, Empty, Form, Input, InputNumber, Select, Space, Spin, Tree } from 'antd';
import type { Rule } from 'antd/es/form';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { switcherIcon } from '../../../platform/crud/a11y';
import { useDict } from '../../../platform/crud/dict';
import { getData, HttpError, postData } from '../../../platform/http/client';
import { currentLanguage } from '../../../platform/i18n';
import { can } from '../../../platform/session/session';

const BASE = `/api/${regionResource.service}/${regionResource.path}`;
const ROOT = REGION_ROOT;

/** The definition's fields the form shows, by name. */
const field = (name: string): FieldDef => regionResource.fields.find((f) => f.name === name)!;
const FIELDS = {
  code: field('code'),
  name: field('name'),
  regionLevel: field('regionLevel'),
  sort: field('sort'),
  remark: field('remark'),
};

function rules(f: FieldDef): Rule[] {
  const lang = currentLanguage();
  return [
    ...(f.required ? [{ required: true, message: requiredMessage(f)[lang] }] : []),
    {
      validator: async (_: unknown, v: unknown) => {
        const err = checkField({ ...f, required: false }, v);
        if (err) throw new Error(err[lang]);
      },
    },
  ];
}

interface Node {
  title: string;
  key: string;
  isLeaf: boolean;
  regionLevel?: number;
  children?: Node[];
}
interface LazyNode {
  id: string;
  parentId: string;
  title: string;
  hasChildren: boolean;
  regionLevel: number;
}
interface Region {
  code: string;
  parentCode: string;
  parentName: string;
  name: string;
  regionLevel: number;
  sort: number;
  remark: string;
}
type Editing = { mode: 'edit'; region: Region } | { mode: 'add'; parentCode: string; parentName: string };

const loadChildren = async (parentCode: string): Promise<Node[]> =>
  (await getData<LazyNode[]>(`${BASE}/lazy-tree`, { parentCode })).map((n) => ({
    title: n.title,
    key: n.id,
    isLeaf: !n.hasChildren,
    regionLevel: n.regionLevel,
  }));

function replaceChildren(nodes: Node[], key: string, children: Node[]): Node[] {
  return nodes.map((n) => {
    if (n.key === key) return { ...n, isLeaf: children.length === 0, children };
    if (n.children) return { ...n, children: replaceChildren(n.children, key, children) };
    return n;
  });
}

export default function RegionPage() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm();
  const levels = useDict('region');
  const [nodes, setNodes] = useState<Node[] | null>(null);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [saving, setSaving] = useState(false);
  const may = { add: can('region_add'), edit: can('region_edit'), del: can('region_delete') };

  useEffect(() => {
    loadChildren(ROOT)
      .then(setNodes)
      .catch(() => setNodes([]));
  }, []);

  /** Reload the children of a code (ROOT for the provinces) after a change. */
  const reload = useCallback(async (parentCode: string) => {
    const children = await loadChildren(parentCode);
    if (parentCode === ROOT) setNodes(children);
    else {
      setNodes((prev) => replaceChildren(prev ?? [], parentCode, children));
      if (children.length) setExpanded((keys) => [...new Set([...keys, parentCode])]);
    }
  }, []);

  const open = async (code: string) => {
    setSelected(code);
    try {
      const region = await getData<Region>(`${BASE}/detail`, { code });
      setEditing({ mode: 'edit', region });
      form.resetFields();
      form.setFieldsValue({ ...region, regionLevel: String(region.regionLevel) });
    } catch {
      setEditing(null);
    }
  };

  const startAdd = (parentCode: string, parentName: string, parentLevel?: number) => {
    setEditing({ mode: 'add', parentCode, parentName });
    form.resetFields();
    form.setFieldsValue({
      code: parentCode === ROOT ? '' : parentCode,
      regionLevel: String(Math.min((parentLevel ?? 0) + 1, 5)),
      sort: 0,
    });
  };

  const save = async (values: Record<string, unknown>) => {
    if (!editing) return;
    const parentCode = editing.mode === 'edit' ? editing.region.parentCode : editing.parentCode;
    const code = String(values.code ?? '').trim();
    if (parentCode !== ROOT && (!code.startsWith(parentCode) || code.length <= parentCode.length)) {
      form.setFields([{ name: 'code', errors: [REGION_MESSAGES.notUnderParent[lang]] }]);
      return;
    }
    setSaving(true);
    try {
      await postData(`${BASE}/submit`, {
        code,
        parentCode,
        name: values.name,
        regionLevel: Number(values.regionLevel),
        sort: values.sort ?? 0,
        remark: values.remark ?? '',
      });
      message.success(t(editing.mode === 'add' ? 'common.added' : 'common.updated'));
      await reload(parentCode);
      await open(code);
    } catch (e) {
      console.error(e);
      if (e instanceof HttpError) {
        const field = (e.body as { data?: { field?: string } } | null)?.data?.field;
        if (field && field in FIELDS) form.setFields([{ name: field, errors: [e.message] }]);
      }
    } finally {
      setSaving(false);
    }
  };

  const remove = () => {
    if (editing?.mode !== 'edit') return;
    const { code, parentCode } = editing.region;
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t('common.confirmDelete'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await postData(`${BASE}/remove`, undefined, { id: code });
        message.success(t('common.deleted'));
        setEditing(null);
        setSelected(null);
        await reload(parentCode);
      },
    });
  };

  const label = (f: FieldDef) => f.label[lang];
  const editable = editing?.mode === 'add' ? may.add : may.edit;
  const current = editing?.mode === 'edit' ? editing.region : null;

  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
      <Card
        variant="borderless"
        size="small"
        title={<span id="region-tree-title">{t('sys.region.tree')}</span>}
        extra={
          may.add ? (
            <Button
              type="link"
              size="small"
              icon={<PlusOutlined aria-hidden />}
              onClick={() => startAdd(ROOT, t('crud.topLevel'))}
            >
              {t('sys.region.addProvince')}
            </Button>
          ) : null
        }
        style={{ width: 320, flex: 'none' }}
        styles={{ body: { maxHeight: 'calc(100vh - 240px)', overflow: 'auto' } }}
      >
        {nodes === null ? (
          <Spin />
        ) : (
          <Tree<Node>
            switcherIcon={switcherIcon}
            aria-labelledby="region-tree-title"
            blockNode
            treeData={nodes}
            expandedKeys={expanded}
            onExpand={(keys) => setExpanded(keys.map(String))}
            selectedKeys={selected ? [selected] : []}
            onSelect={(keys) => {
              if (keys.length) void open(String(keys[0]));
            }}
            loadData={async (node) => {
              if (node.children) return;
              const children = await loadChildren(node.key);
              setNodes((prev) => replaceChildren(prev ?? [], node.key, children));
            }}
          />
        )}
      </Card>
      <Card
        variant="borderless"
        style={{ flex: 1, minWidth: 0 }}
        title={
          editing
            ? editing.mode === 'add'
              ? `${t('common.add')} · ${editing.parentName}`
              : `${current?.name} (${current?.code})`
            : t('sys.region.title')
        }
      >
        {!editing ? (
          <Empty description={t('sys.region.pick')} />
        ) : (
          <Form
            form={form}
            layout="vertical"
            onFinish={save}
            disabled={!editable || saving}
            style={{ maxWidth: 640 }}
            aria-label={t('sys.region.title')}
          >
            <Form.Item label={t('sys.region.parent')}>
              <Input
                value={
                  editing.mode === 'add'
                    ? editing.parentName
                    : current?.parentCode === ROOT
                      ? t('crud.topLevel')
                      : `${current?.parentName} (${current?.parentCode})`
                }
                disabled
                aria-label={t('sys.region.parent')}
              />
            </Form.Item>
            <Form.Item name="code" label={label(FIELDS.code)} rules={rules(FIELDS.code)}>
              {/* the longest code its pattern takes: a village's 12 digits */}
              <Input maxLength={12} disabled={editing.mode === 'edit'} aria-label={label(FIELDS.code)} />
            </Form.Item>
            <Form.Item name="name" label={label(FIELDS.name)} rules={rules(FIELDS.name)}>
              <Input maxLength={FIELDS.name.max} aria-label={label(FIELDS.name)} />
            </Form.Item>
            <Form.Item name="regionLevel" label={label(FIELDS.regionLevel)} rules={rules(FIELDS.regionLevel)}>
              <Select
                aria-label={label(FIELDS.regionLevel)}
                loading={levels.isLoading}
                options={(levels.data ?? []).map((d) => ({ value: d.dictKey, label: d.dictValue }))}
              />
            </Form.Item>
            <Form.Item name="sort" label={label(FIELDS.sort)} rules={rules(FIELDS.sort)}>
              <InputNumber min={0} precision={0} style={{ width: '100%' }} aria-label={label(FIELDS.sort)} />
            </Form.Item>
            <Form.Item name="remark" label={label(FIELDS.remark)} rules={rules(FIELDS.remark)}>
              <Input.TextArea rows={2} maxLength={FIELDS.remark.max} aria-label={label(FIELDS.remark)} />
            </Form.Item>
            <Space wrap>
              {editable && (
                <Button type="primary" htmlType="submit" icon={<SaveOutlined aria-hidden />} loading={saving}>
                  {t('common.save')}
                </Button>
              )}
              {current && may.add && current.regionLevel < 5 && (
                <Button
                  icon={<SubnodeOutlined aria-hidden />}
                  disabled={false}
                  onClick={() =>
                    startAdd(current.code, `${current.name} (${current.code})`, current.regionLevel)
                  }
                >
                  {t('crud.addChild')}
                </Button>
              )}
              {current && may.del && (
                <Button danger icon={<DeleteOutlined aria-hidden />} disabled={false} onClick={remove}>
                  {t('common.delete')}
                </Button>
              )}
            </Space>
          </Form>
        )}
      </Card>
    </div>
  );
}
