/**
 * The chosen button of the custom menu: its name (with its size in UTF-8 bytes against WeChat's limit: 16 for
 * a top-level button, 60 below), its action type (the ten of WX_MENU_TYPES) and the fields that type needs —
 * view a URL; miniprogram an AppID, a page path and a fallback URL; click and the scan, picture and location
 * types a key; article_view_limited an article picked from the published ones (`freePublish/page`). A field a
 * check refuses shows the check's words under it.
 */
import { WX_MENU_TYPE_LABELS, WX_MENU_TYPES, type WxMenuType } from '@smart/contracts/wechat-rules';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Select, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { getData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';
import {
  type ActionField,
  byteLimit,
  bytesOf,
  hasSubs,
  MENU_TYPES,
  type MenuSel,
  type WxMenuButton,
} from './menu-editor';

/** the published articles (the drafts and publishing screens' endpoint): what article_view_limited opens */
const PUBLISHED = '/api/dfem-hope-wx/freePublish/page';
interface Published {
  articleId: string;
  title: string;
  url?: string;
}

interface Props {
  button: WxMenuButton;
  sel: MenuSel;
  /** the field a check refuses on this button, and its words */
  problem: { field?: string; message: string } | null;
  onRename: (name: string) => void;
  onRetype: (type: WxMenuType) => void;
  onField: (field: ActionField, value: string) => void;
}

const FIELD_LABEL: Record<ActionField, 'key' | 'url' | 'appid' | 'pagepath' | 'article'> = {
  key: 'key',
  url: 'url',
  appid: 'appid',
  pagepath: 'pagepath',
  article_id: 'article',
};

function ArticleSelect({
  id,
  value,
  onChange,
  label,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const found = useQuery({
    queryKey: ['wx-published'],
    queryFn: () => getData<{ records?: Published[] }>(PUBLISHED, { current: 1, size: 50 }, { silent: true }),
    retry: false,
    staleTime: 30_000,
  });
  const records = found.data?.records ?? [];
  const options = records.map((r) => ({ value: r.articleId, label: r.title || r.articleId }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: value });
  return (
    <>
      <Select
        id={id}
        aria-label={label}
        value={value || undefined}
        onChange={(v) => onChange(v ?? '')}
        options={options}
        loading={found.isFetching}
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        status={found.isError ? 'warning' : undefined}
        notFoundContent={found.isFetching ? undefined : t('wxmp.menu.articleNone')}
        style={{ width: '100%' }}
      />
      {found.isError && (
        <Alert type="warning" showIcon style={{ marginTop: 8 }} title={t('wxmp.menu.articleFailed')} />
      )}
    </>
  );
}

export function MenuButtonForm({ button, sel, problem, onRename, onRetype, onField }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const lang = currentLanguage();
  const idOf = (f: string) => `wx-menu-${f}`;
  const parent = hasSubs(button);
  const type = (button.type && button.type in WX_MENU_TYPES ? button.type : undefined) as
    | WxMenuType
    | undefined;

  /** the field's byte counter (announced as it changes) and the check's words when it refuses the field */
  const item = (field: 'name' | ActionField, label: string) => {
    const value = String((button as Record<string, unknown>)[field] ?? '');
    const limit = byteLimit(field, sel);
    const size = bytesOf(value, limit);
    const refused = problem && problem.field === field ? problem.message : undefined;
    return {
      label,
      htmlFor: idOf(field),
      validateStatus: refused || size.over ? ('error' as const) : undefined,
      help: refused,
      extra:
        limit === undefined ? undefined : (
          <span
            aria-live="polite"
            data-testid={`bytes-${field}`}
            style={{ color: size.over ? token.colorErrorText : token.colorTextSecondary }}
          >
            {t('wxmp.menu.bytes', { bytes: size.bytes, limit })}
          </span>
        ),
    };
  };

  const text = (field: ActionField, label: string, placeholder?: string) => (
    <Form.Item key={field} {...item(field, label)}>
      <Input
        id={idOf(field)}
        value={String((button as Record<string, unknown>)[field] ?? '')}
        placeholder={placeholder}
        onChange={(e) => onField(field, e.target.value)}
      />
    </Form.Item>
  );

  const fields = type ? (WX_MENU_TYPES[type] as readonly ActionField[]) : [];
  return (
    <Form layout="vertical" component="div">
      <Form.Item {...item('name', t('wxmp.menu.name'))}>
        <Input id={idOf('name')} value={button.name ?? ''} onChange={(e) => onRename(e.target.value)} />
      </Form.Item>
      {parent ? (
        <Alert type="info" showIcon title={t('wxmp.menu.parentNote')} />
      ) : (
        <>
          <Form.Item
            label={t('wxmp.menu.type')}
            htmlFor={idOf('type')}
            validateStatus={problem?.field === 'type' ? 'error' : undefined}
            help={problem?.field === 'type' ? problem.message : undefined}
          >
            <Select
              id={idOf('type')}
              aria-label={t('wxmp.menu.type')}
              value={type}
              onChange={(v: WxMenuType) => onRetype(v)}
              options={MENU_TYPES.map((k) => ({ value: k, label: WX_MENU_TYPE_LABELS[k][lang] }))}
              style={{ width: '100%' }}
            />
          </Form.Item>
          {fields.map((f) => {
            const label = t(
              `wxmp.menu.${type === 'miniprogram' && f === 'url' ? 'urlFallback' : FIELD_LABEL[f]}`,
            );
            if (f === 'article_id')
              return (
                <Form.Item key={f} {...item(f, label)}>
                  <ArticleSelect
                    id={idOf(f)}
                    label={label}
                    value={String(button.article_id ?? '')}
                    onChange={(v) => onField(f, v)}
                  />
                </Form.Item>
              );
            if (f === 'key')
              return (
                <Form.Item key={f} {...item(f, label)} tooltip={t('wxmp.menu.keyHelp')}>
                  <Input
                    id={idOf(f)}
                    value={button.key ?? ''}
                    onChange={(e) => onField('key', e.target.value)}
                  />
                </Form.Item>
              );
            return text(
              f,
              label,
              f === 'url'
                ? 'https://'
                : f === 'appid'
                  ? 'wx…'
                  : f === 'pagepath'
                    ? 'pages/index/index'
                    : undefined,
            );
          })}
        </>
      )}
    </Form>
  );
}
