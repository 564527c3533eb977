/**
 * 自定义菜单 (spec §2 the custom-menu screen): the menu of the chosen public account, edited three ways kept in
 * step — the button list (add, reorder and remove by buttons, each reachable by keyboard), the phone preview
 * (WeChat's bottom bar and the chosen button's sub-menu) and the JSON view, `{ "button": [...] }` exactly as
 * WeChat takes it. Editing the list or the preview rewrites the JSON; a JSON that parses and passes
 * WeChat's rules (`wxMenuProblem`) is taken into the editor, any other is refused with the reason while the
 * editor keeps its state. The checks run in the browser as on the server: the refused button is marked in
 * the list and the preview, and 发布菜单 waits until none is left. Release (`wxMenu/release`, button
 * `wxMenu_release`) asks first; a refusal naming a button (`data.path`, or the field of a rule) chooses it.
 */
import './i18n';
import './mp-i18n';
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  ExclamationCircleFilled,
  PlusOutlined,
  ReloadOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { WX_NO_ACCOUNT, wxMenuResource } from '@smart/contracts/wechat-mp';
import { wxMenuClean, wxMenuProblem } from '@smart/contracts/wechat-rules';
import { Alert, App, Button, Card, Empty, Flex, Input, Space, Tag, Typography, theme } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData, HttpError, postData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';
import { can, useSession } from '../../platform/session/session';
import { AccountPicker } from './AccountPicker';
import { useWxAccounts } from './accounts';
import { MenuButtonForm } from './MenuButtonForm';
import { MenuPreview } from './MenuPreview';
import {
  addSub,
  addTop,
  buttonAt,
  canAddSub,
  canAddTop,
  canMove,
  emptyMenu,
  type MenuSel,
  menuOf,
  menuText,
  menuWire,
  move,
  parseMenu,
  removeAt,
  rename,
  retype,
  sameSel,
  selOfPath,
  setField,
  type WxMenu,
} from './menu-editor';

const API = `/api/${wxMenuResource.service}`;
const RELEASE_CODE = `${wxMenuResource.permission}_release`;

interface MenuRow {
  accountId: string;
  menuJson?: string;
  releaseTime?: string;
}

export default function MenuPage() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { token } = theme.useToken();
  const { modal, message } = App.useApp();
  useSession((s) => s.permission);

  const { accounts, accountId, setAccountId, account } = useWxAccounts();
  const [menu, setMenu] = useState<WxMenu>(emptyMenu);
  const [sel, setSel] = useState<MenuSel | null>(null);
  const [json, setJson] = useState(() => menuText(emptyMenu()));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [released, setReleased] = useState<{ wire: string | null; time?: string }>({ wire: null });
  const [refusal, setRefusal] = useState<{ path?: string; message: string } | null>(null);
  const [loading, setLoading] = useState(false);
  const [releasing, setReleasing] = useState(false);

  /** the editor from scratch: the account's released menu (or none) */
  const show = useCallback((next: WxMenu, row?: MenuRow) => {
    setMenu(next);
    setSel(next.button.length ? { i: 0 } : null);
    setJson(menuText(next));
    setJsonError(null);
    setRefusal(null);
    setReleased({ wire: row ? menuWire(next) : null, time: row?.releaseTime });
  }, []);

  const load = useCallback(
    async (id: string) => {
      setLoading(true);
      try {
        const page = await getData<{ records: MenuRow[] }>(`${API}/wxMenu/list`, { current: 1, size: 100 });
        const row = page.records.find((r) => String(r.accountId) === id);
        show(menuOf(row?.menuJson), row);
      } catch {
        // the http client has said what went wrong
      } finally {
        setLoading(false);
      }
    },
    [show],
  );

  useEffect(() => {
    if (accountId) void load(accountId);
  }, [accountId, load]);

  /** an edit of the list, the preview or the form: the JSON view follows */
  const edit = (next: WxMenu, nextSel: MenuSel | null = sel) => {
    setMenu(next);
    setSel(nextSel);
    setJson(menuText(next));
    setJsonError(null);
    setRefusal(null);
  };

  /** an edit of the JSON view: taken when it parses and passes, else refused with its reason */
  const editJson = (text: string) => {
    setJson(text);
    const parsed = parseMenu(text);
    if ('error' in parsed) {
      setJsonError(parsed.error[lang]);
      return;
    }
    setJsonError(null);
    setRefusal(null);
    setMenu(parsed.menu);
    setSel((s) => (s && buttonAt(parsed.menu, s) ? s : parsed.menu.button.length ? { i: 0 } : null));
  };

  const problem = useMemo(() => wxMenuProblem(wxMenuClean(menu)), [menu]);
  const shown = refusal ?? (problem ? { path: problem.path, message: problem.message[lang] } : null);
  const badAt = selOfPath(shown?.path);
  const bad = badAt?.sel ?? null;
  const locate = () => bad && setSel(bad);

  // nothing released and nothing built yet is no change
  const dirty = released.wire === null ? menu.button.length > 0 : menuWire(menu) !== released.wire;
  const chosen = buttonAt(menu, sel);
  const nameOf = (name: string | undefined) => name?.trim() || t('wxmp.menu.unnamed');

  const release = () => {
    if (!accountId || problem) return;
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t('wxmp.menu.releaseConfirm', { account: account?.label ?? '' }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        setReleasing(true);
        try {
          const row = await postData<MenuRow>(
            `${API}/wxMenu/release`,
            { accountId, button: wxMenuClean(menu).button },
            undefined,
            { silent: true },
          );
          setReleased({ wire: menuWire(menu), time: row?.releaseTime });
          message.success(t('wxmp.menu.released'));
        } catch (e) {
          const body =
            e instanceof HttpError ? (e.body as { data?: { path?: string; field?: string } }) : null;
          const path = body?.data?.path ?? body?.data?.field;
          const text = e instanceof Error ? e.message : String(e);
          setRefusal({ path, message: text });
          const at = selOfPath(path);
          if (at) setSel(at.sel);
        } finally {
          setReleasing(false);
        }
      },
    });
  };

  if (accounts && accounts.length === 0)
    return (
      <Card variant="borderless">
        <Empty description={WX_NO_ACCOUNT[lang]} />
      </Card>
    );

  const rowTools = (at: MenuSel, name: string) => (
    <Space size={0}>
      <Button
        type="text"
        size="small"
        icon={<ArrowUpOutlined />}
        aria-label={t('wxmp.menu.moveUpOf', { name })}
        disabled={!canMove(menu, at, -1)}
        onClick={() => {
          const r = move(menu, at, -1);
          edit(r.menu, r.sel);
        }}
      />
      <Button
        type="text"
        size="small"
        icon={<ArrowDownOutlined />}
        aria-label={t('wxmp.menu.moveDownOf', { name })}
        disabled={!canMove(menu, at, 1)}
        onClick={() => {
          const r = move(menu, at, 1);
          edit(r.menu, r.sel);
        }}
      />
      {at.j === undefined && (
        <Button
          type="text"
          size="small"
          icon={<PlusOutlined />}
          aria-label={t('wxmp.menu.addSubTo', { name })}
          disabled={!canAddSub(menu, at.i)}
          onClick={() => {
            const r = addSub(menu, at.i, t('wxmp.menu.newSub'));
            edit(r.menu, r.sel);
          }}
        />
      )}
      <Button
        type="text"
        size="small"
        danger
        icon={<DeleteOutlined />}
        aria-label={t('wxmp.menu.removeOf', { name })}
        onClick={() => {
          const r = removeAt(menu, at);
          edit(r.menu, r.sel);
        }}
      />
    </Space>
  );

  const entry = (at: MenuSel, name: string | undefined) => {
    const picked = sameSel(at, sel);
    const wrong = sameSel(at, bad);
    return (
      <Flex
        align="center"
        justify="space-between"
        gap={4}
        style={{
          paddingLeft: at.j === undefined ? 4 : 28,
          borderRadius: token.borderRadiusSM,
          background: picked ? token.colorPrimaryBg : undefined,
          outline: wrong ? `1px solid ${token.colorError}` : undefined,
        }}
      >
        <Button
          type="text"
          size="small"
          aria-pressed={picked}
          aria-invalid={wrong || undefined}
          aria-label={t('wxmp.menu.pick', { name: nameOf(name) })}
          onClick={() => setSel(at)}
          style={{ flex: 1, justifyContent: 'flex-start', minWidth: 0 }}
          icon={wrong ? <ExclamationCircleFilled style={{ color: token.colorError }} /> : undefined}
        >
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{nameOf(name)}</span>
        </Button>
        {rowTools(at, nameOf(name))}
      </Flex>
    );
  };

  return (
    <Card variant="borderless" styles={{ body: { padding: 16 } }}>
      <Flex wrap gap={12} align="center" style={{ marginBottom: 12 }}>
        <AccountPicker accounts={accounts} accountId={accountId} onChange={setAccountId} />
        <Typography.Text type="secondary">
          {released.time ? t('wxmp.menu.lastRelease', { time: released.time }) : t('wxmp.menu.neverReleased')}
        </Typography.Text>
        {dirty && <Tag color="orange">{t('wxmp.menu.unsaved')}</Tag>}
        <span style={{ flex: 1 }} />
        <Button icon={<ReloadOutlined />} onClick={() => accountId && load(accountId)} loading={loading}>
          {t('common.refresh')}
        </Button>
        {can(RELEASE_CODE) && (
          <Button
            type="primary"
            icon={<SendOutlined />}
            onClick={release}
            loading={releasing}
            disabled={!accountId || !!problem || loading}
          >
            {t('wxmp.menu.release')}
          </Button>
        )}
      </Flex>

      {menu.button.length === 0 && !refusal ? null : shown ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={
            refusal
              ? t('wxmp.menu.releaseFailed', { message: refusal.message })
              : t('wxmp.menu.problem', { message: shown.message })
          }
          action={
            bad ? (
              <Button size="small" onClick={locate}>
                {t('wxmp.menu.locate')}
              </Button>
            ) : undefined
          }
          style={{ marginBottom: 12 }}
        />
      ) : (
        <Alert type="success" showIcon title={t('wxmp.menu.ready')} style={{ marginBottom: 12 }} />
      )}

      <Flex wrap gap={16} align="flex-start">
        <MenuPreview menu={menu} accountName={account?.label ?? ''} sel={sel} bad={bad} onSelect={setSel} />
        <Card
          size="small"
          title={t('wxmp.menu.buttons')}
          style={{ flex: '1 1 260px', minWidth: 240 }}
          extra={
            <Button
              size="small"
              icon={<PlusOutlined />}
              disabled={!canAddTop(menu)}
              onClick={() => {
                const r = addTop(menu, t('wxmp.menu.newTop'));
                edit(r.menu, r.sel);
              }}
            >
              {t('wxmp.menu.addTop')}
            </Button>
          }
        >
          {menu.button.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('wxmp.menu.none')} />
          ) : (
            <ul aria-label={t('wxmp.menu.buttons')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {menu.button.map((b, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a button is its place in the menu
                <li key={i} style={{ marginBottom: 4 }}>
                  {entry({ i }, b.name)}
                  {(b.sub_button ?? []).length > 0 && (
                    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                      {(b.sub_button ?? []).map((s, j) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: a sub-button is its place under its parent
                        <li key={j}>{entry({ i, j }, s.name)}</li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card size="small" title={t('wxmp.menu.editor')} style={{ flex: '1 1 300px', minWidth: 280 }}>
          {chosen && sel ? (
            <MenuButtonForm
              button={chosen}
              sel={sel}
              problem={
                badAt && sameSel(badAt.sel, sel) && shown
                  ? { field: badAt.field, message: shown.message }
                  : null
              }
              onRename={(name) => edit(rename(menu, sel, name))}
              onRetype={(type) => edit(retype(menu, sel, type))}
              onField={(field, value) => edit(setField(menu, sel, field, value))}
            />
          ) : (
            <Typography.Text type="secondary">{t('wxmp.menu.noneSelected')}</Typography.Text>
          )}
        </Card>
      </Flex>

      <Card size="small" title={t('wxmp.menu.json')} style={{ marginTop: 16 }}>
        <Typography.Paragraph type="secondary" id="wx-menu-json-help" style={{ marginBottom: 8 }}>
          {t('wxmp.menu.jsonHelp')}
        </Typography.Paragraph>
        <Input.TextArea
          aria-label={t('wxmp.menu.json')}
          aria-describedby="wx-menu-json-help"
          aria-invalid={!!jsonError || undefined}
          status={jsonError ? 'error' : undefined}
          value={json}
          onChange={(e) => editJson(e.target.value)}
          autoSize={{ minRows: 8, maxRows: 24 }}
          spellCheck={false}
          style={{ fontFamily: token.fontFamilyCode }}
        />
        {jsonError && (
          <Alert
            type="error"
            showIcon
            style={{ marginTop: 8 }}
            title={t('wxmp.menu.jsonRejected', { message: jsonError })}
          />
        )}
      </Card>
    </Card>
  );
}
