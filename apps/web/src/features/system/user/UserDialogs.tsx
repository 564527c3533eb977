/** The users screen's dialogs: 角色配置 and 平台配置 (导入 and 导出 are the engine's Excel buttons). */
import { useQuery } from '@tanstack/react-query';
import { App, Form, Input, Modal, Select, Spin, Tree } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { switcherIcon } from '../../../platform/crud/a11y';
import type { Row } from '../../../platform/crud/CrudPage';
import { useDict, useOptionTree } from '../../../platform/crud/dict';
import { stripEmptyChildren } from '../../../platform/crud/tree';
import { getData, postData } from '../../../platform/http/client';

const USER = '/api/dfem-user';

/** 角色配置: replaces the roles of the chosen users; an account awaiting approval is approved by it. */
export function UserRoleDialog({
  users,
  onClose,
  onDone,
}: {
  users: Row[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const roles = useOptionTree('role');
  const nodes = useMemo(() => stripEmptyChildren(roles.data ?? []), [roles.data]);
  const initial =
    users.length === 1
      ? String(users[0].roleId ?? '')
          .split(',')
          .filter(Boolean)
      : [];
  const [checked, setChecked] = useState<string[]>(initial);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!checked.length) {
      setError(t('sys.user.chooseRole'));
      return;
    }
    setSaving(true);
    try {
      await postData(`${USER}/grant`, undefined, {
        userIds: users.map((u) => u.id).join(','),
        roleIds: checked.join(','),
      });
      message.success(t('common.succeeded'));
      onDone();
    } catch (e) {
      console.error(e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`${t('sys.user.roleConfig')} · ${users.map((u) => u.account).join(', ')}`}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving }}
      onOk={save}
    >
      {roles.isLoading ? (
        <Spin />
      ) : (
        <Tree
          switcherIcon={switcherIcon}
          aria-label={t('sys.user.roles')}
          checkable
          checkStrictly
          selectable={false}
          defaultExpandAll
          checkedKeys={checked}
          onCheck={(keys) => {
            setChecked((Array.isArray(keys) ? keys : keys.checked).map(String));
            setError('');
          }}
          treeData={nodes}
          fieldNames={{ title: 'title', key: 'key', children: 'children' }}
        />
      )}
      {error && (
        <div role="alert" style={{ color: '#ff4d4f', marginTop: 8 }}>
          {error}
        </div>
      )}
    </Modal>
  );
}

/** 平台配置: the user's platform (dictionary user_type) and its extra settings. */
export function UserPlatformDialog({ user, onClose }: { user: Row; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ userType?: string; userExt?: string }>();
  const [saving, setSaving] = useState(false);
  const types = useDict('user_type');
  const detail = useQuery({
    queryKey: ['user-platform', user.id],
    queryFn: () =>
      getData<{ userType: number | null; userExt: string }>(`${USER}/platform-detail`, { id: user.id }),
    gcTime: 0,
    staleTime: 0,
  });
  const submit = async (v: { userType?: string; userExt?: string }) => {
    setSaving(true);
    try {
      await postData(`${USER}/update-platform`, undefined, {
        userId: user.id,
        userType: v.userType,
        userExt: v.userExt ?? '',
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
      title={`${t('sys.user.platform')} · ${String(user.account)}`}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, disabled: !detail.data }}
      onOk={() => form.submit()}
    >
      {!detail.data ? (
        <Spin />
      ) : (
        <Form
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{
            userType: detail.data.userType ? String(detail.data.userType) : '1',
            userExt: detail.data.userExt,
          }}
        >
          <Form.Item
            name="userType"
            label={t('sys.user.userType')}
            rules={[{ required: true, message: t('sys.user.chooseUserType') }]}
          >
            <Select
              aria-label={t('sys.user.userType')}
              loading={types.isLoading}
              options={(types.data ?? []).map((d) => ({ value: d.dictKey, label: d.dictValue }))}
            />
          </Form.Item>
          <Form.Item name="userExt" label={t('sys.user.userExt')}>
            <Input.TextArea rows={4} maxLength={2000} showCount />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
