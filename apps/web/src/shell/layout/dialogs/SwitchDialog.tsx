/**
 * 用户信息选择 (spec §2, §3 switch form): the user's own depts and roles; 切换 refreshes the token narrowed
 * to them, reloads the menu, buttons and user info, and goes to /.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { getData } from '../../../platform/http/client';
import { switchDeptRole, useSession } from '../../../platform/session/session';
import { closeDialog } from '../ui';

interface Values {
  deptId?: string;
  roleId?: string;
}

export default function SwitchDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const user = useSession((s) => s.userInfo);
  const userId = user?.id ?? '';
  const [saving, setSaving] = useState(false);
  const depts = useQuery({
    queryKey: ['switch-depts', userId],
    queryFn: () => getData<{ id: string; deptName: string }[]>('/api/dfem-system/dept/select', { userId }),
    gcTime: 0,
  });
  const roles = useQuery({
    queryKey: ['switch-roles', userId],
    queryFn: () => getData<{ id: string; roleName: string }[]>('/api/dfem-system/role/select', { userId }),
    gcTime: 0,
  });

  const submit = async ({ deptId, roleId }: Values) => {
    if (!deptId || !roleId) return;
    setSaving(true);
    try {
      await switchDeptRole(deptId, roleId);
      closeDialog();
      await navigate('/');
    } catch {
      /* the client showed the server's message */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open title={t('switch.title')} width={480} footer={null} onCancel={closeDialog} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item
          name="deptId"
          label={t('switch.dept')}
          rules={[{ required: true, message: t('switch.deptRequired') }]}
        >
          <Select
            loading={depts.isLoading}
            placeholder={t('switch.deptRequired')}
            options={(depts.data ?? []).map((d) => ({ label: d.deptName, value: d.id }))}
          />
        </Form.Item>
        <Form.Item
          name="roleId"
          label={t('switch.role')}
          rules={[{ required: true, message: t('switch.roleRequired') }]}
        >
          <Select
            loading={roles.isLoading}
            placeholder={t('switch.roleRequired')}
            options={(roles.data ?? []).map((r) => ({ label: r.roleName, value: r.id }))}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={saving}>
          {t('switch.submit')}
        </Button>
      </Form>
    </Modal>
  );
}
