/** The add / edit dialog: the definition's form fields with their kinds' controls and the shared rules. */

import {
  type FieldDef,
  type ResourceDef,
  relatedFields,
  requiredBy,
  uniqueSets,
} from '@smart/contracts/core';
import { placeholderOf } from '@smart/contracts/placeholder';
import { useQuery } from '@tanstack/react-query';
import { Form, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData, HttpError, postData } from '../http/client';
import { showErrorToast } from '../http/toast';
import { currentLanguage } from '../i18n';
import { ChildTable, childRules, childrenToWire } from './ChildTable';
import { FieldControl, rulesFor, toFormValue, toWireValue } from './fields';
import { resourceBase } from './query';
import type { CrudPageProps, FieldControlProps, FieldOverride, Row } from './types';

type EditMode = 'add' | 'edit';

function OverrideControl({
  render,
  ...props
}: FieldControlProps & {
  render: NonNullable<FieldOverride['control']>;
  mode: EditMode;
  row?: Row;
}) {
  return <>{render(props)}</>;
}

export function RecordDialog({
  def,
  mode,
  row,
  defaults,
  overrides,
  childOverrides,
  beforeSubmit,
  submitPath = 'submit',
  onClose,
  onSaved,
}: {
  def: ResourceDef;
  mode: EditMode;
  row?: Row;
  defaults?: Record<string, unknown>;
  overrides?: Record<string, FieldOverride>;
  childOverrides?: CrudPageProps['childTables'];
  beforeSubmit?: CrudPageProps['beforeSubmit'];
  /** the route the form posts to below the resource's path (the engine's `submit` or an alias of it) */
  submitPath?: string;
  onClose: () => void;
  onSaved: (mode: EditMode, saved: Row) => Promise<void>;
}) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const base = resourceBase(def);
  // a password is typed when a record is added only
  const fields = def.fields.filter(
    (f) => f.form !== false && !f.readOnly && !(f.type === 'password' && mode !== 'add'),
  );
  const width = def.dialogWidth ?? 880;
  /** references that are unique keys on their own: their pickers offer only rows not named yet */
  const loneKeys = new Set(
    uniqueSets(def).flatMap((set) =>
      set.length === 1 && def.fields.some((f) => f.name === set[0] && f.type === 'ref') ? set : [],
    ),
  );

  // edit reads the record fresh from the server
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
    // a secret is never shown: the server answers a placeholder at most, and an empty field keeps it
    const raw = source ? (f.secret ? undefined : source[f.name]) : (defaults?.[f.name] ?? f.default);
    initial[f.name] = toFormValue(f, raw);
  }
  const children = def.children ?? [];
  for (const c of children) initial[c.name] = source?.[c.name] ?? [];

  const submit = async (values: Record<string, unknown>) => {
    let body: Record<string, unknown> = {};
    for (const f of fields) body[f.name] = toWireValue(f, values[f.name]);
    for (const c of children) body[c.name] = childrenToWire(c, values[c.name]);
    if (row) body.id = row.id;
    if (beforeSubmit) body = beforeSubmit(body, mode, row);
    setSaving(true);
    let saved: Row;
    try {
      // silent: a refusal is said once, where it belongs (on its field, else as one toast), and the
      // console stays quiet: a refusal is an answer, not a fault of the page
      saved = await postData<Row>(`${base}/${submitPath}`, body, undefined, { silent: true });
    } catch (e) {
      // a failed save leaves the form as it was, enabled, with the server's field error on the field
      setSaving(false);
      if (!(e instanceof HttpError)) throw e;
      if (e.code === 401) return; // signed out: the client is already on its way to /login
      const field = (e.body as { data?: { field?: string } } | null)?.data?.field;
      if (field && [...fields.map((f) => f.name), ...children.map((c) => c.name)].includes(field))
        form.setFields([{ name: field, errors: [e.message] }]);
      else showErrorToast(e.message);
      return;
    }
    try {
      await onSaved(mode, saved);
    } finally {
      setSaving(false);
    }
  };

  /** whether another field's value on the form requires this one now (`requiredWhen`) */
  const requiredNow = (f: FieldDef, values?: Record<string, unknown>) => {
    const w = f.requiredWhen;
    const other = w && values && def.fields.find((x) => x.name === w.field);
    return !!other && requiredBy(f, toWireValue(other, values[other.name]));
  };

  const title = t(mode === 'add' ? 'common.add' : 'common.edit');
  const item = (f: FieldDef, values?: Record<string, unknown>) => {
    const ov = overrides?.[f.name];
    const disabled = !!ov?.disabledIn?.includes(mode);
    const placeholder = placeholderOf(f, lang);
    const control = ov?.control ? (
      <OverrideControl
        render={ov.control}
        field={f}
        resource={def.key}
        mode={mode}
        row={row}
        disabled={disabled}
        placeholder={placeholder}
      />
    ) : (
      <FieldControl
        field={f}
        resource={def.key}
        disabled={disabled}
        placeholder={placeholder}
        unusedBy={loneKeys.has(f.name) ? `${def.key}.${f.name}` : undefined}
        exclude={mode === 'edit' && f.name === 'parentId' ? row?.id : undefined}
        secretHint={mode === 'edit' && f.secret ? t('crud.secretKept') : undefined}
      />
    );
    return (
      <Form.Item
        key={f.name}
        name={f.name}
        label={f.label[lang]}
        required={
          (f.required && !f.secret) || (f.type === 'password' && mode === 'add') || requiredNow(f, values)
        }
        rules={[...rulesFor(f, mode, def.fields), ...(ov?.rules ?? [])]}
        dependencies={relatedFields(f).length ? relatedFields(f) : undefined}
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
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, disabled: !!row && detail.isLoading }}
      onOk={() => form.submit()}
    >
      {(!row || detail.data) && (
        <Form
          form={form}
          layout="vertical"
          initialValues={initial}
          onFinish={submit}
          disabled={saving}
          style={{ display: 'grid', gridTemplateColumns: 'repeat(24, 1fr)', columnGap: 16 }}
        >
          {fields.map((f) => {
            const hidden = overrides?.[f.name]?.hidden;
            // a field another one's value requires shows its mark as that value changes
            if (!hidden && !f.requiredWhen) return item(f);
            return (
              <Form.Item key={f.name} noStyle shouldUpdate>
                {(instance) => {
                  const values = instance.getFieldsValue(true);
                  return hidden?.(values, mode) ? null : item(f, values);
                }}
              </Form.Item>
            );
          })}
          {children.map((c) => (
            <Form.Item
              key={c.name}
              name={c.name}
              label={c.label[lang]}
              rules={childRules(c)}
              style={{ gridColumn: 'span 24' }}
            >
              <ChildTable decl={c} rowExtra={childOverrides?.[c.name]?.rowExtra} />
            </Form.Item>
          ))}
        </Form>
      )}
    </Modal>
  );
}
