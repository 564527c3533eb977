/** /system/role — the role tree (generic page) plus 权限设置: menus, data scopes and API scopes of roles. */
import './i18n';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { roleResource } from '@smart/contracts/admin';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Modal, Spin, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import type { TreeOption } from '../../platform/crud/dict';
import { checkedForDisplay, withAncestors } from '../../platform/crud/tree';
import { getData, postData } from '../../platform/http/client';
import { can, ensureSessionData } from '../../platform/session/session';
import { GrantTree } from './GrantTree';

interface GrantTrees {
  menu: TreeOption[];
  dataScope: TreeOption[];
  apiScope: TreeOption[];
}
type Keys = { menu: string[]; dataScope: string[]; apiScope: string[] };

/** scope trees hang the scopes under their menu as `menu-<id>` headings: those are not scope ids */
const scopeIds = (keys: string[]) => keys.filter((k) => !k.startsWith('menu-'));

export function RoleGrantDialog({ roles, onClose }: { roles: Row[]; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const roleIds = roles.map((r) => r.id);
  const trees = useQuery({
    queryKey: ['grant-tree'],
    queryFn: () => getData<GrantTrees>('/api/dfem-system/menu/grant-tree'),
    staleTime: 0,
  });
  const keys = useQuery({
    queryKey: ['role-tree-keys', roleIds.join(',')],
    queryFn: () => getData<Keys>('/api/dfem-system/menu/role-tree-keys', { roleIds: roleIds.join(',') }),
    gcTime: 0,
    staleTime: 0,
  });
  const [checked, setChecked] = useState<Keys | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (trees.data && keys.data && !checked)
      setChecked({
        menu: checkedForDisplay(trees.data.menu, keys.data.menu),
        dataScope: checkedForDisplay(trees.data.dataScope, keys.data.dataScope),
        apiScope: checkedForDisplay(trees.data.apiScope, keys.data.apiScope),
      });
  }, [trees.data, keys.data, checked]);

  const save = async () => {
    if (!checked || !trees.data) return;
    setSaving(true);
    try {
      await postData('/api/dfem-system/role/grant', {
        roleIds,
        // a granted button or menu brings its (half-checked) parents, so the user's menu shows them
        menuIds: withAncestors(trees.data.menu, checked.menu),
        dataScopeIds: scopeIds(checked.dataScope),
        apiScopeIds: scopeIds(checked.apiScope),
      });
      message.success(t('common.succeeded'));
      void ensureSessionData(true); // the signed-in user's own roles may have changed
      onClose();
    } catch (e) {
      console.error(e);
    } finally {
      setSaving(false);
    }
  };

  const tab = (key: keyof Keys, label: string) => ({
    key,
    label,
    children: checked && (
      <GrantTree
        label={label}
        data={trees.data?.[key]}
        checked={checked[key]}
        onChange={(next) => setChecked({ ...checked, [key]: next })}
      />
    ),
  });
  const names = roles.map((r) => r.roleName).join(', ');
  return (
    <Modal
      open
      title={`${t('sys.role.grant')} · ${names}`}
      width={640}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, disabled: !checked }}
      onOk={save}
    >
      {!checked ? (
        <Spin />
      ) : (
        <Tabs
          items={[
            tab('menu', t('sys.role.menuTab')),
            tab('dataScope', t('sys.role.dataScopeTab')),
            tab('apiScope', t('sys.role.apiScopeTab')),
          ]}
        />
      )}
    </Modal>
  );
}

export default function RolePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [granting, setGranting] = useState<Row[] | null>(null);
  const mayGrant = can('role_grant');
  return (
    <>
      <CrudPage
        def={roleResource}
        selectable={mayGrant}
        rowName={(row) => String(row.roleName)}
        toolbar={(ctx) =>
          mayGrant && (
            <Button
              icon={<SafetyCertificateOutlined aria-hidden />}
              onClick={() =>
                ctx.selectedRows.length
                  ? setGranting(ctx.selectedRows)
                  : message.warning(t('common.selectAtLeastOne'))
              }
            >
              {t('sys.role.grant')}
            </Button>
          )
        }
        rowActions={(row) =>
          mayGrant && (
            <Button
              type="link"
              size="small"
              icon={<SafetyCertificateOutlined aria-hidden />}
              onClick={() => setGranting([row])}
            >
              {t('sys.role.grant')}
            </Button>
          )
        }
      />
      {granting && <RoleGrantDialog roles={granting} onClose={() => setGranting(null)} />}
    </>
  );
}
