/**
 * /system/user — users (generic page) beside the dept tree that filters them, with 角色配置 (which also
 * approves an account awaiting approval), 密码重置, 账号解封, 平台配置, 导入 and 导出.
 */
import '../i18n';
import { SettingOutlined, TeamOutlined, UndoOutlined, UnlockOutlined } from '@ant-design/icons';
import { userResource } from '@smart/contracts/user';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Spin, Tag, Tree } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { switcherIcon } from '../../../platform/crud/a11y';
import { CrudPage, type Row } from '../../../platform/crud/CrudPage';
import type { MoreAction } from '../../../platform/crud/columns';
import { useOptionTree } from '../../../platform/crud/dict';
import { branchKeys, stripEmptyChildren } from '../../../platform/crud/tree';
import { postData } from '../../../platform/http/client';
import { currentLanguage } from '../../../platform/i18n';
import { can } from '../../../platform/session/session';
import { type IssuedPassword, OneTimePasswords } from '../OneTimePasswords';
import { UserPlatformDialog, UserRoleDialog } from './UserDialogs';

/** The dept tree beside the list: picking a dept lists its users and those of the depts below it. */
function DeptPanel({ value, onChange }: { value?: string; onChange: (id?: string) => void }) {
  const { t } = useTranslation();
  const depts = useOptionTree('dept');
  const nodes = useMemo(() => stripEmptyChildren(depts.data ?? []), [depts.data]);
  return (
    <Card
      variant="borderless"
      size="small"
      title={<span id="user-dept-title">{t('sys.user.depts')}</span>}
      extra={
        value ? (
          <Button type="link" size="small" onClick={() => onChange(undefined)}>
            {t('common.all')}
          </Button>
        ) : null
      }
      style={{ width: 240, flex: 'none' }}
    >
      {depts.isLoading ? (
        <Spin />
      ) : (
        <Tree
          switcherIcon={switcherIcon}
          aria-labelledby="user-dept-title"
          blockNode
          defaultExpandedKeys={branchKeys(nodes)}
          selectedKeys={value ? [value] : []}
          onSelect={(keys) => onChange(keys.length ? String(keys[0]) : undefined)}
          treeData={nodes}
          fieldNames={{ title: 'title', key: 'key', children: 'children' }}
        />
      )}
    </Card>
  );
}

type Dialog =
  | { kind: 'role'; users: Row[] }
  | { kind: 'platform'; user: Row }
  | { kind: 'passwords'; issued: IssuedPassword[] };

export default function UserPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [deptId, setDeptId] = useState<string>();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['crud', userResource.key] });
  const may = {
    role: can('user_role'),
    reset: can('user_reset'),
    unlock: can('user_unlock'),
    platform: can('user_platform'),
  };

  const needRows = (rows: Row[], then: (rows: Row[]) => void) => {
    if (!rows.length) message.warning(t('common.selectAtLeastOne'));
    else then(rows);
  };

  const resetPassword = (rows: Row[]) =>
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t('sys.user.confirmReset'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        // the server generates each password and answers it once: it is shown now or never
        const issued = await postData<IssuedPassword[]>('/api/dfem-user/reset-password', undefined, {
          userIds: rows.map((r) => r.id).join(','),
        });
        message.success(t('sys.user.resetDone'));
        setDialog({ kind: 'passwords', issued });
      },
    });

  const unlock = (rows: Row[]) =>
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t('sys.user.confirmUnlock'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await postData('/api/dfem-user/unlock', undefined, { userIds: rows.map((r) => r.id).join(',') });
        message.success(t('sys.user.unlockDone'));
      },
    });

  // the account's own actions join 删除 in the row's one 更多 menu (columns.tsx)
  const rowMenu = (row: Row): MoreAction[] =>
    (
      [
        may.role && {
          key: 'role',
          icon: <TeamOutlined />,
          label: t('sys.user.roleConfig'),
          onClick: () => setDialog({ kind: 'role', users: [row] }),
        },
        may.reset && {
          key: 'reset',
          icon: <UndoOutlined />,
          label: t('sys.user.reset'),
          onClick: () => resetPassword([row]),
        },
        may.unlock && {
          key: 'unlock',
          icon: <UnlockOutlined />,
          label: t('sys.user.unlock'),
          onClick: () => unlock([row]),
        },
        may.platform && {
          key: 'platform',
          icon: <SettingOutlined />,
          label: t('sys.user.platform'),
          onClick: () => setDialog({ kind: 'platform', user: row }),
        },
      ] as (MoreAction | false)[]
    ).filter((x): x is MoreAction => !!x);

  return (
    <>
      <CrudPage
        def={userResource}
        fixedFilters={deptId ? { deptId } : undefined}
        side={<DeptPanel value={deptId} onChange={setDeptId} />}
        selectable={may.role || may.reset || may.unlock}
        rowName={(row) => String(row.account)}
        columns={{
          extra: [
            {
              key: 'roleName',
              // a role's English name in English (the server answers both; a role without one, its Chinese)
              dataIndex: currentLanguage() === 'en' ? 'roleNameEn' : 'roleName',
              title: t('sys.user.roles'),
            },
            { key: 'deptName', dataIndex: 'deptName', title: t('sys.user.depts') },
            {
              key: 'status',
              dataIndex: 'status',
              title: t('common.status'),
              render: (v: unknown) =>
                Number(v) === 0 ? (
                  <Tag color="warning">{t('sys.user.pending')}</Tag>
                ) : (
                  <Tag color="success">{t('sys.user.active')}</Tag>
                ),
            },
          ],
        }}
        toolbar={(ctx) => (
          <>
            {may.role && (
              <Button
                icon={<TeamOutlined aria-hidden />}
                onClick={() => needRows(ctx.selectedRows, (users) => setDialog({ kind: 'role', users }))}
              >
                {t('sys.user.roleConfig')}
              </Button>
            )}
            {may.reset && (
              <Button
                icon={<UndoOutlined aria-hidden />}
                onClick={() => needRows(ctx.selectedRows, resetPassword)}
              >
                {t('sys.user.reset')}
              </Button>
            )}
            {may.unlock && (
              <Button
                icon={<UnlockOutlined aria-hidden />}
                onClick={() => needRows(ctx.selectedRows, unlock)}
              >
                {t('sys.user.unlock')}
              </Button>
            )}
          </>
        )}
        moreActions={rowMenu}
      />
      {dialog?.kind === 'role' && (
        <UserRoleDialog
          users={dialog.users}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            void refresh();
          }}
        />
      )}
      {dialog?.kind === 'platform' && (
        <UserPlatformDialog user={dialog.user} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'passwords' && (
        <OneTimePasswords issued={dialog.issued} onClose={() => setDialog(null)} />
      )}
    </>
  );
}
