import {
  DeleteOutlined,
  EditOutlined,
  EyeOutlined,
  NodeExpandOutlined,
  PlusOutlined,
  ReloadOutlined,
  SearchOutlined,
  SubnodeOutlined,
} from '@ant-design/icons';
import { type FieldDef, PAGE_SIZES, type Page, type ResourceDef } from '@smart/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Modal, Space, Table, Tooltip } from 'antd';
import type { Rule } from 'antd/es/form';
import type { ColumnsType } from 'antd/es/table';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData, HttpError, postData } from '../http/client';
import { currentLanguage } from '../i18n';
import { can, useSession } from '../session/session';
import {
  DictLabel,
  FieldControl,
  type FieldControlProps,
  rulesFor,
  toFormValue,
  toWireValue,
} from './fields';
import { compactParams, type DateRange, dateRangeParams, resourceBase } from './query';
import './i18n';
import { branchKeys, stripEmptyChildren } from './tree';

export type Row = { id: string; children?: Row[] } & Record<string, unknown>;
export type DialogMode = 'add' | 'edit' | 'view';

/** What a screen's extra toolbar buttons and row actions can use. */
export interface CrudContext {
  selectedIds: string[];
  /** the selected rows of the current page (or tree) */
  selectedRows: Row[];
  /** the list's current filters (fixed ones included), as sent */
  filters: Record<string, string>;
  refresh: () => Promise<void>;
  clearSelection: () => void;
}

/** A screen's changes to one field of the add / edit / view dialog. */
export interface FieldOverride {
  /** replaces the form control (value, onChange and id come from the form) */
  control?: (props: FieldControlProps & { mode: DialogMode; row?: Row }) => ReactNode;
  /** hides the field while true (evaluated on every change of the form) */
  hidden?: (values: Record<string, unknown>, mode: DialogMode) => boolean;
  /** the control is read-only in these modes */
  disabledIn?: DialogMode[];
  /** rules added to the definition's */
  rules?: Rule[];
}

export interface CrudPageProps {
  def: ResourceDef;
  /** the list endpoint when it is not `<base>/<listPath>` (e.g. dict/parent-list) */
  listUrl?: string;
  /** filters always sent (a side panel's choice: deptId, menuId, parentId) */
  fixedFilters?: Record<string, string>;
  /** false: nothing to list yet; `idle` is shown instead of the table */
  enabled?: boolean;
  idle?: ReactNode;
  /** extra toolbar buttons, after add and batch delete */
  toolbar?: (ctx: CrudContext) => ReactNode;
  /** extra actions of a row, after view / edit / delete */
  rowActions?: (row: Row, ctx: CrudContext) => ReactNode;
  /** a panel beside the list (e.g. the users' dept tree) */
  side?: ReactNode;
  columns?: {
    /** cell renderers by field name */
    render?: Record<string, (value: unknown, row: Row) => ReactNode>;
    /** columns after the definition's */
    extra?: ColumnsType<Row>;
    /** the creation time column (default shown) */
    createTime?: boolean;
  };
  fields?: Record<string, FieldOverride>;
  /** initial values of the add dialog, over the definition's defaults */
  addDefaults?: Record<string, unknown>;
  /** adjusts the body before it is sent */
  beforeSubmit?: (body: Record<string, unknown>, mode: DialogMode, row?: Row) => Record<string, unknown>;
  /** after a save, with the server's answer (e.g. what it tells only once, such as an initial password) */
  afterSave?: (mode: DialogMode, saved: Row) => void;
  /** replaces the view dialog (e.g. a detail drawer) */
  detailView?: (row: Row, close: () => void) => ReactNode;
  /** the search form (default shown) and its date range (default shown) */
  search?: boolean;
  dateRange?: boolean;
  /** rows are selectable even without the delete permission (for toolbar actions) */
  selectable?: boolean;
  /** a row's name for screen readers and confirmations (default: the first list field) */
  rowName?: (row: Row) => string;
}

/** a field picked rather than typed: its placeholder says 请选择 */
const selectLike = (f: FieldDef) =>
  !!f.dict || !!f.tree || ['dict', 'dictMulti', 'ids', 'ref', 'date', 'datetime'].includes(f.type);

function flatten(rows: Row[], into = new Map<string, Row>()): Map<string, Row> {
  for (const r of rows) {
    into.set(r.id, r);
    if (r.children?.length) flatten(r.children, into);
  }
  return into;
}

/**
 * The generic list page of spec §2, built from a resource definition: search form with a date range, table
 * with paging (10/30/50/100/200) or, for tree resources, the whole tree with expandable rows; add / edit /
 * view dialogs, row delete and batch delete, each button shown only when its permission code is granted
 * (the server checks again). Screens that are more than a list add toolbar buttons, row actions, a side
 * panel, fixed filters and field controls through the props instead of copying the page.
 */
export function CrudPage(props: CrudPageProps) {
  const {
    def,
    fixedFilters,
    enabled = true,
    idle,
    toolbar,
    rowActions,
    side,
    columns: columnOptions,
    fields: overrides,
    addDefaults,
    beforeSubmit,
    afterSave,
    detailView,
    search = true,
    dateRange = true,
    selectable,
  } = props;
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  useSession((s) => s.permission); // re-render when grants change
  const [searchForm] = Form.useForm();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [paging, setPaging] = useState({ current: 1, size: def.pageSize ?? 10 });
  const [selected, setSelected] = useState<string[]>([]);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [dialog, setDialog] = useState<{
    mode: DialogMode;
    row?: Row;
    defaults?: Record<string, unknown>;
  } | null>(null);

  const base = resourceBase(def);
  const listUrl = props.listUrl ?? `${base}/${def.listPath ?? 'list'}`;
  const tree = !!def.tree;
  const code = def.permission;
  const perms = {
    add: can(`${code}_add`),
    edit: can(`${code}_edit`),
    del: can(`${code}_delete`),
    view: def.view !== false && can(`${code}_view`),
  };
  const label = (f: FieldDef) => f.label[lang];
  const fixed = fixedFilters ?? {};
  // a fixed filter is the side panel's to set, not the search form's
  const searchFields = search ? def.fields.filter((f) => f.search && !(f.name in fixed)) : [];
  const listFields = def.fields.filter((f) => f.list !== false && !f.secret && f.type !== 'password');
  const sent = { ...filters, ...fixed };
  // another choice of the side panel is another list: its selection and paging start afresh
  const fixedKey = JSON.stringify(fixed);
  const [lastFixed, setLastFixed] = useState(fixedKey);
  if (lastFixed !== fixedKey) {
    setLastFixed(fixedKey);
    setSelected([]);
    setPaging((p) => ({ ...p, current: 1 }));
  }
  const rowName =
    props.rowName ?? ((row: Row) => String(row[listFields[0]?.name ?? 'id'] ?? row.id ?? '') || row.id);

  const query = useQuery({
    queryKey: ['crud', def.key, listUrl, tree ? null : paging, filters, fixed],
    queryFn: async (): Promise<{ records: Row[]; total: number }> => {
      if (tree) {
        const nodes = stripEmptyChildren(await getData<Row[]>(listUrl, sent));
        return { records: nodes, total: flatten(nodes).size };
      }
      const page = await getData<Page<Row>>(listUrl, { current: paging.current, size: paging.size, ...sent });
      return { records: page?.records ?? [], total: page?.total ?? 0 };
    },
    enabled,
    placeholderData: keepPreviousData,
  });
  const records = enabled ? (query.data?.records ?? []) : [];
  const byId = useMemo(() => flatten(records), [records]);

  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: ['crud', def.key] });
    // pickers built from this resource (parent selects, user forms) follow its changes
    await qc.invalidateQueries({ queryKey: ['tree', def.key] });
  };
  const ctx: CrudContext = {
    selectedIds: selected,
    selectedRows: selected.map((id) => byId.get(id)).filter((r): r is Row => !!r),
    filters: sent,
    refresh,
    clearSelection: () => setSelected([]),
  };

  const onSearch = (values: Record<string, unknown>) => {
    const next: Record<string, unknown> = {};
    for (const f of searchFields) next[f.name] = toWireValue(f, values[f.name]);
    setFilters({ ...compactParams(next), ...dateRangeParams(values.createTime as DateRange) });
    setPaging((p) => ({ ...p, current: 1 }));
  };

  const remove = (ids: string[]) => {
    if (!ids.length) {
      message.warning(t('crud.selectAtLeastOne'));
      return;
    }
    modal.confirm({
      title: t('crud.confirmTitle'),
      content: t('crud.confirmDelete'),
      okText: t('crud.ok'),
      cancelText: t('crud.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await postData(`${base}/remove`, undefined, { ids: ids.join(',') });
        message.success(t('crud.deleted'));
        setSelected((s) => s.filter((id) => !ids.includes(id)));
        await refresh();
      },
    });
  };

  // rebuilt on each render: cheap, and always in the current language with the current grants
  const addChild = tree && perms.add && def.fields.some((f) => f.name === 'parentId');
  const hasActions = perms.view || perms.edit || perms.del || addChild || !!rowActions;
  const columns: ColumnsType<Row> = [
    ...listFields.map((f) => ({
      key: f.name,
      dataIndex: f.name,
      title: label(f),
      ellipsis: f.type === 'textarea',
      render: (v: unknown, row: Row) => {
        const custom = columnOptions?.render?.[f.name];
        if (custom) return custom(v, row);
        return f.dict ? <DictLabel code={f.dict} value={v} /> : (v as ReactNode);
      },
    })),
    ...(columnOptions?.extra ?? []),
    ...(columnOptions?.createTime === false
      ? []
      : [{ key: 'createTime', dataIndex: 'createTime', title: t('crud.createTime'), width: 170 }]),
    ...(hasActions
      ? [
          {
            key: 'actions',
            title: t('crud.actions'),
            fixed: 'right' as const,
            render: (_: unknown, row: Row) => (
              <Space size={0} wrap role="group" aria-label={t('crud.rowActions', { name: rowName(row) })}>
                {perms.view && (
                  <Button
                    type="link"
                    size="small"
                    icon={<EyeOutlined aria-hidden />}
                    onClick={() => setDialog({ mode: 'view', row })}
                  >
                    {t('crud.view')}
                  </Button>
                )}
                {perms.edit && (
                  <Button
                    type="link"
                    size="small"
                    icon={<EditOutlined aria-hidden />}
                    onClick={() => setDialog({ mode: 'edit', row })}
                  >
                    {t('crud.edit')}
                  </Button>
                )}
                {addChild && (
                  <Button
                    type="link"
                    size="small"
                    icon={<SubnodeOutlined aria-hidden />}
                    onClick={() => setDialog({ mode: 'add', defaults: { ...addDefaults, parentId: row.id } })}
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
                    onClick={() => remove([row.id])}
                  >
                    {t('crud.delete')}
                  </Button>
                )}
                {rowActions?.(row, ctx)}
              </Space>
            ),
          },
        ]
      : []),
  ];

  const allBranches = tree ? branchKeys(records) : [];
  const main = (
    <Card variant="borderless" style={{ flex: 1, minWidth: 0 }} styles={{ body: { padding: 16 } }}>
      {(searchFields.length > 0 || (search && dateRange)) && (
        <Form
          form={searchForm}
          layout="inline"
          onFinish={onSearch}
          style={{ marginBottom: 16, rowGap: 12 }}
          aria-label={`${def.label[lang]} ${t('crud.search')}`}
        >
          {searchFields.map((f) => (
            <Form.Item key={f.name} name={f.name} label={label(f)}>
              <FieldControl
                field={{ ...f, type: f.type === 'textarea' ? 'text' : f.type }}
                placeholder={t(selectLike(f) ? 'crud.placeholderSelect' : 'crud.placeholderInput', {
                  label: label(f),
                })}
              />
            </Form.Item>
          ))}
          {dateRange && (
            <Form.Item name="createTime" label={t('crud.dateRange')}>
              {/* the range picker keeps the start on or before the end (query.ts swaps a reversed one) */}
              <DatePicker.RangePicker
                allowEmpty={[true, true]}
                placeholder={[t('crud.startDate'), t('crud.endDate')]}
                aria-label={t('crud.dateRange')}
              />
            </Form.Item>
          )}
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined aria-hidden />}>
                {t('crud.search')}
              </Button>
              <Button
                onClick={() => {
                  searchForm.resetFields();
                  onSearch({});
                }}
              >
                {t('crud.reset')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      )}

      {!enabled ? (
        idle
      ) : (
        <>
          <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
            <Space wrap>
              {perms.add && (
                <Button
                  type="primary"
                  icon={<PlusOutlined aria-hidden />}
                  onClick={() => setDialog({ mode: 'add', defaults: addDefaults })}
                >
                  {t('crud.add')}
                </Button>
              )}
              {perms.del && (
                <Button danger icon={<DeleteOutlined aria-hidden />} onClick={() => remove(selected)}>
                  {t('crud.batchDelete')}
                </Button>
              )}
              {toolbar?.(ctx)}
              {tree && allBranches.length > 0 && (
                <Button
                  icon={<NodeExpandOutlined aria-hidden />}
                  onClick={() => setExpanded(expanded.length ? [] : allBranches)}
                >
                  {t(expanded.length ? 'crud.collapseAll' : 'crud.expandAll')}
                </Button>
              )}
              {selected.length > 0 && (
                <span aria-live="polite">{t('crud.selected', { count: selected.length })}</span>
              )}
            </Space>
            <Tooltip title={t('crud.refresh')}>
              <Button
                aria-label={t('crud.refresh')}
                icon={<ReloadOutlined aria-hidden />}
                onClick={() => refresh()}
              />
            </Tooltip>
          </Space>

          <Table<Row>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={records}
            loading={query.isFetching}
            scroll={{ x: 'max-content' }}
            rowSelection={
              perms.del || selectable
                ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }
                : undefined
            }
            expandable={
              tree
                ? {
                    expandedRowKeys: expanded,
                    onExpandedRowsChange: (keys) => setExpanded(keys as string[]),
                  }
                : undefined
            }
            locale={{ emptyText: t('crud.empty') }}
            pagination={
              tree
                ? false
                : {
                    current: paging.current,
                    pageSize: paging.size,
                    total: query.data?.total ?? 0,
                    pageSizeOptions: PAGE_SIZES.map(String),
                    showSizeChanger: true,
                    showTotal: (total) => t('crud.total', { total }),
                    onChange: (current, size) =>
                      setPaging({ current: size === paging.size ? current : 1, size }),
                  }
            }
          />
        </>
      )}

      {dialog &&
        (dialog.mode === 'view' && detailView && dialog.row ? (
          detailView(dialog.row, () => setDialog(null))
        ) : (
          <RecordDialog
            def={def}
            mode={dialog.mode}
            row={dialog.row}
            defaults={dialog.defaults}
            overrides={overrides}
            beforeSubmit={beforeSubmit}
            onClose={() => setDialog(null)}
            onSaved={async (mode, saved) => {
              message.success(
                def.savedMessage ? def.savedMessage[lang] : t(mode === 'add' ? 'crud.added' : 'crud.updated'),
              );
              setDialog(null);
              afterSave?.(mode, saved);
              await refresh();
            }}
          />
        ))}
    </Card>
  );

  if (!side) return main;
  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
      {side}
      {main}
    </div>
  );
}

function OverrideControl({
  render,
  ...props
}: FieldControlProps & {
  render: NonNullable<FieldOverride['control']>;
  mode: DialogMode;
  row?: Row;
}) {
  return <>{render(props)}</>;
}

function RecordDialog({
  def,
  mode,
  row,
  defaults,
  overrides,
  beforeSubmit,
  onClose,
  onSaved,
}: {
  def: ResourceDef;
  mode: DialogMode;
  row?: Row;
  defaults?: Record<string, unknown>;
  overrides?: Record<string, FieldOverride>;
  beforeSubmit?: CrudPageProps['beforeSubmit'];
  onClose: () => void;
  onSaved: (mode: DialogMode, saved: Row) => Promise<void>;
}) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const base = resourceBase(def);
  // a password is typed when a record is added only; a secret is never shown
  const fields = def.fields.filter(
    (f) =>
      f.form !== false &&
      !f.readOnly &&
      !(f.type === 'password' && mode !== 'add') &&
      !(f.secret && mode === 'view'),
  );
  const readOnly = mode === 'view';
  const width = def.dialogWidth ?? 880;

  // edit and view read the record fresh from the server
  const detail = useQuery({
    queryKey: ['crud-detail', def.key, row?.id],
    queryFn: () => getData<Row>(`${base}/detail`, { id: row!.id }),
    enabled: !!row,
    gcTime: 0,
  });
  // the form reads its initial values once, when it mounts (after the detail has arrived)
  const source = detail.data ?? row;
  const initial: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = source ? source[f.name] : (defaults?.[f.name] ?? f.default);
    initial[f.name] = toFormValue(f, raw);
  }

  const submit = async (values: Record<string, unknown>) => {
    let body: Record<string, unknown> = {};
    for (const f of fields) body[f.name] = toWireValue(f, values[f.name]);
    if (row) body.id = row.id;
    if (beforeSubmit) body = beforeSubmit(body, mode, row);
    setSaving(true);
    try {
      const saved = await postData<Row>(`${base}/submit`, body);
      await onSaved(mode, saved);
    } catch (e) {
      // a failed save leaves the form as it was, enabled, with the server's field error on the field
      console.error(e);
      if (e instanceof HttpError) {
        const field = (e.body as { data?: { field?: string } } | null)?.data?.field;
        if (field && fields.some((f) => f.name === field))
          form.setFields([{ name: field, errors: [e.message] }]);
      }
    } finally {
      setSaving(false);
    }
  };

  const title = t(mode === 'add' ? 'crud.titleAdd' : mode === 'edit' ? 'crud.titleEdit' : 'crud.titleView');
  const item = (f: FieldDef) => {
    const ov = overrides?.[f.name];
    const disabled = readOnly || !!ov?.disabledIn?.includes(mode);
    const placeholder = t(selectLike(f) ? 'crud.placeholderSelect' : 'crud.placeholderInput', {
      label: f.label[lang],
    });
    const control = ov?.control ? (
      <OverrideControl
        render={ov.control}
        field={f}
        mode={mode}
        row={row}
        disabled={disabled}
        placeholder={placeholder}
      />
    ) : (
      <FieldControl
        field={f}
        disabled={disabled}
        placeholder={placeholder}
        exclude={mode === 'edit' && f.name === 'parentId' ? row?.id : undefined}
        secretHint={mode === 'edit' && f.secret ? t('crud.secretKept') : undefined}
      />
    );
    return (
      <Form.Item
        key={f.name}
        name={f.name}
        label={f.label[lang]}
        required={(f.required && !f.secret) || (f.type === 'password' && mode === 'add')}
        rules={readOnly ? [] : [...rulesFor(f, mode, def.fields), ...(ov?.rules ?? [])]}
        dependencies={f.notBefore ? [f.notBefore] : undefined}
        validateTrigger={f.requiredOnBlur ? ['onBlur', 'onChange'] : 'onChange'}
        style={{ gridColumn: `span ${width < 700 ? 24 : (f.span ?? 12)}` }}
      >
        {control}
      </Form.Item>
    );
  };
  return (
    <Modal
      open
      title={`${title} · ${def.label[lang]}`}
      width={width}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      okText={t('crud.save')}
      cancelText={t(readOnly ? 'crud.close' : 'crud.cancel')}
      okButtonProps={{
        loading: saving,
        disabled: (!!row && detail.isLoading) || readOnly,
        style: readOnly ? { display: 'none' } : undefined,
      }}
      onOk={() => form.submit()}
    >
      {(!row || detail.data) && (
        <Form
          form={form}
          layout="vertical"
          initialValues={initial}
          onFinish={submit}
          disabled={readOnly || saving}
          style={{ display: 'grid', gridTemplateColumns: 'repeat(24, 1fr)', columnGap: 16 }}
        >
          {fields.map((f) => {
            const hidden = overrides?.[f.name]?.hidden;
            if (!hidden) return item(f);
            return (
              <Form.Item key={f.name} noStyle shouldUpdate>
                {(instance) => (hidden(instance.getFieldsValue(true), mode) ? null : item(f))}
              </Form.Item>
            );
          })}
        </Form>
      )}
    </Modal>
  );
}
