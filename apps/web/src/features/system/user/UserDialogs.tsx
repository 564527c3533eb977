/** The users screen's dialogs: 角色配置, 平台配置 and 导入. */
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { userResource } from '@smart/contracts/user';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Form,
  Input,
  Modal,
  Progress,
  Select,
  Spin,
  Switch,
  Table,
  Tree,
  Upload,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { switcherIcon } from '../../../platform/crud/a11y';
import type { Row } from '../../../platform/crud/CrudPage';
import { useDict, useOptionTree } from '../../../platform/crud/dict';
import { downloadFile, uploadWithProgress } from '../../../platform/crud/transfer';
import { stripEmptyChildren } from '../../../platform/crud/tree';
import { getData, HttpError, postData } from '../../../platform/http/client';
import { currentLanguage } from '../../../platform/i18n';

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
      message.success(t('crud.done'));
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
      okText={t('crud.save')}
      cancelText={t('crud.cancel')}
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
      message.success(t('crud.done'));
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
      okText={t('crud.save')}
      cancelText={t('crud.cancel')}
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

interface RowError {
  row: number;
  field: string;
  message: string;
}

/** What the server's per-row errors name besides the form's fields. */
const IMPORT_COLUMNS: Record<string, { zh: string; en: string }> = {
  sexName: { zh: '用户性别', en: 'Sex' },
  roleName: { zh: '所属角色', en: 'Roles' },
  deptName: { zh: '所属机构', en: 'Departments' },
};

function columnLabel(field: string): string {
  const lang = currentLanguage();
  const f = userResource.fields.find((x) => x.name === field);
  return f ? f.label[lang] : (IMPORT_COLUMNS[field]?.[lang] ?? field);
}

/** 导入: an .xlsx of users, all or nothing; the server's per-row errors are listed. */
export function UserImportDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [covered, setCovered] = useState(false);
  const [percent, setPercent] = useState<number | null>(null);
  const [errors, setErrors] = useState<RowError[]>([]);
  const [problem, setProblem] = useState('');

  const upload = async () => {
    if (!file) {
      setProblem(t('sys.user.chooseFile'));
      return;
    }
    const form = new FormData();
    form.append('file', file);
    setErrors([]);
    setProblem('');
    setPercent(0);
    try {
      const result = await uploadWithProgress<{ created: number; updated: number }>(
        `${USER}/import-user`,
        form,
        { isCovered: covered ? 1 : 0 },
        setPercent,
      );
      message.success(t('sys.user.imported', { created: result.created, updated: result.updated }));
      // new accounts start without a usable password: say how they get one
      if (result.created) message.info({ content: t('sys.user.importedNoPassword'), duration: 10 });
      onDone();
    } catch (e) {
      console.error(e);
      const body = e instanceof HttpError ? (e.body as { data?: { errors?: RowError[] } } | null) : null;
      if (body?.data?.errors?.length) setErrors(body.data.errors);
      else setProblem(e instanceof Error ? e.message : String(e));
      setPercent(null);
    }
  };

  return (
    <Modal
      open
      title={t('sys.user.import')}
      width={720}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      okText={t('sys.user.upload')}
      cancelText={t('crud.cancel')}
      okButtonProps={{ loading: percent !== null && percent < 100 && !errors.length }}
      onOk={upload}
    >
      <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
        <Upload.Dragger
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          maxCount={1}
          multiple={false}
          fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
          beforeUpload={(f) => {
            if (!/\.xlsx$/i.test(f.name)) {
              setProblem(t('sys.user.onlyXlsx'));
              return Upload.LIST_IGNORE;
            }
            setFile(f);
            setProblem('');
            setErrors([]);
            setPercent(null);
            return false;
          }}
          onRemove={() => setFile(null)}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('sys.user.dropHint')}</p>
          <p className="ant-upload-hint">{t('sys.user.importHint')}</p>
        </Upload.Dragger>
        <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
            <Switch id="user-import-covered" checked={covered} onChange={setCovered} />
            <label htmlFor="user-import-covered">{t('sys.user.covered')}</label>
          </span>
          <Button
            icon={<DownloadOutlined aria-hidden />}
            onClick={() =>
              downloadFile(`${USER}/export-template`, undefined, `${t('sys.user.templateName')}.xlsx`).catch(
                (e) => console.error(e),
              )
            }
          >
            {t('sys.user.template')}
          </Button>
        </div>
        {percent !== null && (
          <Progress
            percent={percent}
            aria-label={t('sys.user.uploading')}
            status={errors.length ? 'exception' : undefined}
          />
        )}
        {problem && <Alert type="error" showIcon title={problem} />}
        {errors.length > 0 && (
          <>
            <Alert type="error" showIcon title={t('sys.user.importErrors', { count: errors.length })} />
            <Table<RowError>
              size="small"
              rowKey={(r) => `${r.row}-${r.field}-${r.message}`}
              dataSource={errors}
              pagination={errors.length > 10 ? { pageSize: 10 } : false}
              columns={[
                { key: 'row', dataIndex: 'row', title: t('sys.user.errorRow'), width: 80 },
                {
                  key: 'field',
                  dataIndex: 'field',
                  title: t('sys.user.errorField'),
                  width: 140,
                  render: (v: string) => columnLabel(v),
                },
                { key: 'message', dataIndex: 'message', title: t('sys.user.errorMessage') },
              ]}
            />
          </>
        )}
      </div>
    </Modal>
  );
}
