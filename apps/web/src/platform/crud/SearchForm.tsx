/** The list page's search form: each searchable field with its kind's search control, and the date range. */

import { SearchOutlined } from '@ant-design/icons';
import type { FieldDef } from '@smart/contracts/core';
import { placeholderOf } from '@smart/contracts/placeholder';
import { Button, DatePicker, Form, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { FieldSearchControl } from './fields';

export function SearchForm({
  name,
  fields,
  dateRange,
  onSearch,
}: {
  /** the screen's name: the form is "<name> 搜索" to a screen reader */
  name: string;
  fields: FieldDef[];
  dateRange: boolean;
  onSearch: (values: Record<string, unknown>) => void;
}) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const [form] = Form.useForm();
  return (
    <Form
      form={form}
      layout="inline"
      onFinish={onSearch}
      style={{ marginBottom: 16, rowGap: 12 }}
      aria-label={`${name} ${t('common.search')}`}
    >
      {fields.map((f) => (
        <Form.Item key={f.name} name={f.name} label={f.label[lang]}>
          <FieldSearchControl field={f} placeholder={placeholderOf(f, lang)} />
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
            {t('common.search')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              onSearch({});
            }}
          >
            {t('common.clear')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
