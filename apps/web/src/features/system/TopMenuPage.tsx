/** /system/topmenu — top menus (generic page) plus 菜单配置: which menus a top menu groups. */
import './i18n';
import { MenuUnfoldOutlined } from '@ant-design/icons';
import { topMenuResource } from '@smart/contracts/system';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import type { TreeOption } from '../../platform/crud/dict';
import { checkedForDisplay, withAncestors } from '../../platform/crud/tree';
import { getData, postData } from '../../platform/http/client';
import { can } from '../../platform/session/session';
import { GrantTree } from './GrantTree';

function TopMenuGrantDialog({ row, onClose }: { row: Row; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const tree = useQuery({
    queryKey: ['grant-top-tree'],
    queryFn: () => getData<{ menu: TreeOption[] }>('/api/dfem-system/menu/grant-top-tree'),
    staleTime: 0,
  });
  const keys = useQuery({
    queryKey: ['top-tree-keys', row.id],
    queryFn: () => getData<{ menu: string[] }>('/api/dfem-system/menu/top-tree-keys', { topMenuIds: row.id }),
    gcTime: 0,
    staleTime: 0,
  });
  const [checked, setChecked] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (tree.data && keys.data && !checked) setChecked(checkedForDisplay(tree.data.menu, keys.data.menu));
  }, [tree.data, keys.data, checked]);

  const save = async () => {
    if (!checked || !tree.data) return;
    setSaving(true);
    try {
      await postData('/api/dfem-system/topmenu/grant', {
        topMenuIds: [row.id],
        menuIds: withAncestors(tree.data.menu, checked),
      });
      message.success(t('common.succeeded'));
      onClose();
    } catch (e) {
      console.error(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={`${t('sys.topMenu.grant')} · ${String(row.name)}`}
      width={560}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, disabled: !checked }}
      onOk={save}
    >
      {checked ? (
        <GrantTree
          label={t('sys.topMenu.grant')}
          data={tree.data?.menu}
          checked={checked}
          onChange={setChecked}
        />
      ) : (
        <Spin />
      )}
    </Modal>
  );
}

export default function TopMenuPage() {
  const { t } = useTranslation();
  const [granting, setGranting] = useState<Row | null>(null);
  const mayGrant = can('topmenu_grant');
  return (
    <>
      <CrudPage
        def={topMenuResource}
        rowName={(row) => String(row.name)}
        rowActions={(row) =>
          mayGrant && (
            <Button
              type="link"
              size="small"
              icon={<MenuUnfoldOutlined aria-hidden />}
              onClick={() => setGranting(row)}
            >
              {t('sys.topMenu.grant')}
            </Button>
          )
        }
      />
      {granting && <TopMenuGrantDialog row={granting} onClose={() => setGranting(null)} />}
    </>
  );
}
