import {
  DeleteOutlined,
  EditOutlined,
  EyeOutlined,
  PlusOutlined,
  ReloadOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import { type FieldDef, PAGE_SIZES, type Page, type ResourceDef } from '@smart/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Modal, Space, Table, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData, HttpError, postData } from '../http/client';
import { currentLanguage, i18n } from '../i18n';
import { can, useSession } from '../session/session';
import { DictLabel, FieldControl, rulesFor, toFormValue, toWireValue } from './fields';
import { crudEn, crudZh } from './strings';

i18n.addResourceBundle('zh', 'translation', { crud: crudZh }, true, false);
i18n.addResourceBundle('en', 'translation', { crud: crudEn }, true, false);

type Row = { id: string } & Record<string, unknown>;
type DialogMode = 'add' | 'edit' | 'view';

/**
 * The generic list page of spec §2, built from a resource definition: search form with a date range,
 * table with paging (10/30/50/100/200), add / edit / view dialogs, row delete and batch delete, each button
 * shown only when its permission code is granted (the server checks again).
 */
export function CrudPage({ def, toolbar }: { def: ResourceDef; toolbar?: ReactNode }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  useSession((s) => s.permission); // re-render when grants change
  const [searchForm] = Form.useForm();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [paging, setPaging] = useState({ current: 1, size: def.pageSize ?? 10 });
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<{ mode: DialogMode; row?: Row } | null>(null);

  const base = `/api/${def.service}/${def.path}`;
  const listUrl = `${base}/${def.listPath ?? 'list'}`;
  const code = def.permission;
  const perms = {
    add: can(`${code}_add`),
    edit: can(`${code}_edit`),
    del: can(`${code}_delete`),
    view: def.view !== false && can(`${code}_view`),
  };
  const label = (f: FieldDef) => f.label[lang];
  const searchFields = def.fields.filter((f) => f.search);
  const listFields = def.fields.filter((f) => f.list !== false && !f.secret);

  const query = useQuery({
    queryKey: ['crud', def.key, paging, filters],
    queryFn: () => getData<Page<Row>>(listUrl, { current: paging.current, size: paging.size, ...filters }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['crud', def.key] });

  const onSearch = (values: Record<string, unknown>) => {
    const next: Record<string, string> = {};
    for (const f of searchFields) {
      const v = toWireValue(f, values[f.name]);
      if (v !== '' && v !== undefined) next[f.name] = String(v);
    }
    const range = values.createTime as [Dayjs | null, Dayjs | null] | undefined;
    if (range?.[0]) next.createTime_dategt = range[0].format('YYYY-MM-DD');
    if (range?.[1]) next.createTime_datelt = range[1].format('YYYY-MM-DD');
    setFilters(next);
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
  const columns: ColumnsType<Row> = [
    ...listFields.map((f) => ({
      key: f.name,
      dataIndex: f.name,
      title: label(f),
      ellipsis: f.type === 'textarea',
      render: (v: unknown) => (f.dict ? <DictLabel code={f.dict} value={v} /> : (v as ReactNode)),
    })),
    { key: 'createTime', dataIndex: 'createTime', title: t('crud.createTime'), width: 170 },
    {
      key: 'actions',
      title: t('crud.actions'),
      fixed: 'right' as const,
      width: 200,
      render: (_: unknown, row: Row) => (
        <Space size={0}>
          {perms.view && (
            <Button
              type="link"
              size="small"
              icon={<EyeOutlined />}
              onClick={() => setDialog({ mode: 'view', row })}
            >
              {t('crud.view')}
            </Button>
          )}
          {perms.edit && (
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={() => setDialog({ mode: 'edit', row })}
            >
              {t('crud.edit')}
            </Button>
          )}
          {perms.del && (
            <Button
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              onClick={() => remove([row.id])}
            >
              {t('crud.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card variant="borderless" styles={{ body: { padding: 16 } }}>
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
              placeholder={t(f.dict ? 'crud.placeholderSelect' : 'crud.placeholderInput', {
                label: label(f),
              })}
            />
          </Form.Item>
        ))}
        <Form.Item name="createTime" label={t('crud.dateRange')}>
          {/* the range picker keeps the start on or before the end */}
          <DatePicker.RangePicker
            allowEmpty={[true, true]}
            placeholder={[t('crud.startDate'), t('crud.endDate')]}
            aria-label={t('crud.dateRange')}
          />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
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

      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Space>
          {perms.add && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ mode: 'add' })}>
              {t('crud.add')}
            </Button>
          )}
          {perms.del && (
            <Button danger icon={<DeleteOutlined />} onClick={() => remove(selected)}>
              {t('crud.batchDelete')}
            </Button>
          )}
          {toolbar}
          {selected.length > 0 && (
            <span aria-live="polite">{t('crud.selected', { count: selected.length })}</span>
          )}
        </Space>
        <Tooltip title={t('crud.refresh')}>
          <Button aria-label={t('crud.refresh')} icon={<ReloadOutlined />} onClick={() => refresh()} />
        </Tooltip>
      </Space>

      <Table<Row>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={query.data?.records ?? []}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        rowSelection={
          perms.del
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }
            : undefined
        }
        locale={{ emptyText: t('crud.empty') }}
        pagination={{
          current: paging.current,
          pageSize: paging.size,
          total: query.data?.total ?? 0,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: (total) => t('crud.total', { total }),
          onChange: (current, size) => setPaging({ current: size === paging.size ? current : 1, size }),
        }}
      />

      {dialog && (
        <RecordDialog
          def={def}
          mode={dialog.mode}
          row={dialog.row}
          onClose={() => setDialog(null)}
          onSaved={async (mode) => {
            message.success(
              def.savedMessage ? def.savedMessage[lang] : t(mode === 'add' ? 'crud.added' : 'crud.updated'),
            );
            setDialog(null);
            await refresh();
          }}
        />
      )}
    </Card>
  );
}

function RecordDialog({
  def,
  mode,
  row,
  onClose,
  onSaved,
}: {
  def: ResourceDef;
  mode: DialogMode;
  row?: Row;
  onClose: () => void;
  onSaved: (mode: DialogMode) => Promise<void>;
}) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const base = `/api/${def.service}/${def.path}`;
  const fields = def.fields.filter((f) => f.form !== false && !f.readOnly);
  const readOnly = mode === 'view';

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
  for (const f of fields)
    initial[f.name] = source ? toFormValue(f, source[f.name]) : toFormValue(f, f.default);

  const submit = async (values: Record<string, unknown>) => {
    const body: Record<string, unknown> = {};
    for (const f of fields) body[f.name] = toWireValue(f, values[f.name]);
    if (row) body.id = row.id;
    setSaving(true);
    try {
      await postData(`${base}/submit`, body);
      await onSaved(mode);
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
  return (
    <Modal
      open
      title={`${title} · ${def.label[lang]}`}
      width={def.dialogWidth ?? 880}
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
          {fields.map((f) => (
            <Form.Item
              key={f.name}
              name={f.name}
              label={f.label[lang]}
              required={f.required && !f.secret}
              rules={readOnly ? [] : rulesFor(f)}
              validateTrigger={f.requiredOnBlur ? ['onBlur', 'onChange'] : 'onChange'}
              style={{ gridColumn: `span ${(def.dialogWidth ?? 880) < 700 ? 24 : (f.span ?? 12)}` }}
            >
              <FieldControl
                field={f}
                disabled={readOnly}
                placeholder={t(
                  f.dict || f.type === 'ids' ? 'crud.placeholderSelect' : 'crud.placeholderInput',
                  {
                    label: f.label[lang],
                  },
                )}
                secretHint={mode === 'edit' && f.secret ? t('crud.secretKept') : undefined}
              />
            </Form.Item>
          ))}
        </Form>
      )}
    </Modal>
  );
}
