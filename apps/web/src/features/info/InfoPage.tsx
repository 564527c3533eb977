/**
 * /info/index — personal info (spec §2): tab 个人信息 (avatar, realName, name, phone, email; GET
 * /api/dfem-user/info, POST update-info) and tab 修改密码 (oldPassword, newPassword, newPassword1, sent md5).
 * Phone messages are the shared field rules' (spec §5); the avatar is checked before upload (jpg or png,
 * at most 500 KB) and again by the server.
 */
import { LoadingOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { checkField, type FieldDef, requiredMessage } from '@smart/contracts/core';
import { userResource } from '@smart/contracts/user';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Avatar, Button, Card, Form, Input, Spin, Tabs, Upload } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updatePassword } from '../../platform/auth/api';
import { getData, postData, request } from '../../platform/http/client';
import { addBundle, currentLanguage } from '../../platform/i18n';
import { useSession } from '../../platform/session/session';
import { avatarProblem } from './avatar';
import { profileEn, profileZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    profile: typeof profileZh;
  }
}
addBundle('profile', profileZh, profileEn);

interface Profile {
  account: string;
  avatar: string | null;
  realName: string;
  name: string | null;
  phone: string | null;
  email: string | null;
}

const field = (name: string): FieldDef => userResource.fields.find((f) => f.name === name)!;
/** the server requires realName and phone on this form */
const PROFILE_FIELDS: Record<string, FieldDef> = {
  realName: { ...field('realName'), required: true },
  name: field('name'),
  phone: { ...field('phone'), required: true },
  email: field('email'),
};

function rules(f: FieldDef): Rule[] {
  const lang = currentLanguage();
  return [
    ...(f.required ? [{ required: true, message: requiredMessage(f)[lang] }] : []),
    {
      validator: async (_: unknown, v: unknown) => {
        const err = checkField({ ...f, required: false }, v);
        if (err) throw new Error(err[lang]);
      },
    },
  ];
}

function ProfileTab() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [avatarError, setAvatarError] = useState('');
  const avatar = Form.useWatch('avatar', form) as string | undefined;
  const profile = useQuery({
    queryKey: ['profile'],
    queryFn: () => getData<Profile>('/api/dfem-user/info'),
    gcTime: 0,
    staleTime: 0,
  });

  const upload = async (file: File) => {
    const problem = avatarProblem(file);
    if (problem) {
      const text = t(`profile.avatar.${problem}`);
      setAvatarError(text);
      message.error(text);
      return;
    }
    setAvatarError('');
    setUploading(true);
    try {
      const body = new FormData();
      body.append('file', file);
      const res = await request<{ data: { url: string } }>('/api/dfem-resource/file/avatar', {
        method: 'POST',
        body,
      });
      form.setFieldValue('avatar', res.data.url);
    } catch (e) {
      console.error(e);
    } finally {
      setUploading(false);
    }
  };

  const save = async (values: Record<string, string | undefined>) => {
    setSaving(true);
    const body = {
      avatar: values.avatar ?? '',
      realName: values.realName?.trim() ?? '',
      name: values.name?.trim() ?? '',
      phone: values.phone?.trim() ?? '',
      email: values.email?.trim() ?? '',
    };
    try {
      await postData('/api/dfem-user/update-info', body);
      message.success(t('profile.infoSaved'));
      // the top bar shows the new name and avatar at once
      useSession.setState((s) => ({
        userInfo: s.userInfo
          ? {
              ...s.userInfo,
              avatar: body.avatar,
              realName: body.realName,
              name: body.name,
              phone: body.phone,
              email: body.email,
            }
          : s.userInfo,
      }));
      await qc.invalidateQueries({ queryKey: ['profile'] });
    } catch (e) {
      console.error(e);
      const fieldName = (e as { body?: { data?: { field?: string } } }).body?.data?.field;
      if (fieldName && fieldName in PROFILE_FIELDS)
        form.setFields([{ name: fieldName, errors: [(e as Error).message] }]);
    } finally {
      setSaving(false);
    }
  };

  if (!profile.data) return <Spin />;
  const p = profile.data;
  const item = (name: keyof typeof PROFILE_FIELDS) => {
    const f = PROFILE_FIELDS[name];
    return (
      <Form.Item key={name} name={name} label={f.label[lang]} required={f.required} rules={rules(f)}>
        <Input
          maxLength={f.type === 'mobile' ? 11 : f.max}
          autoComplete={name === 'email' ? 'email' : 'off'}
        />
      </Form.Item>
    );
  };
  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxWidth: 520 }}
      initialValues={{
        avatar: p.avatar ?? '',
        realName: p.realName ?? '',
        name: p.name ?? '',
        phone: p.phone ?? '',
        email: p.email ?? '',
      }}
      onFinish={save}
      disabled={saving}
      aria-label={t('profile.infoTab')}
    >
      <Form.Item label={t('profile.avatar.label')}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 16 }}>
          <Avatar
            size={72}
            src={avatar || undefined}
            icon={<UserOutlined aria-hidden />}
            alt={t('profile.avatar.label')}
          />
          <Upload
            accept=".jpg,.jpeg,.png,image/jpeg,image/png"
            showUploadList={false}
            beforeUpload={(file) => {
              void upload(file);
              return Upload.LIST_IGNORE;
            }}
          >
            <Button icon={uploading ? <LoadingOutlined /> : <UploadOutlined />} disabled={uploading}>
              {t('profile.avatar.upload')}
            </Button>
          </Upload>
          <span style={{ color: '#909399' }}>{t('profile.avatar.hint')}</span>
        </div>
        {avatarError && (
          <div role="alert" style={{ color: '#ff4d4f', marginTop: 6 }}>
            {avatarError}
          </div>
        )}
      </Form.Item>
      <Form.Item name="avatar" hidden>
        <Input />
      </Form.Item>
      <Form.Item label={t('profile.account')}>
        <Input value={p.account} disabled aria-label={t('profile.account')} />
      </Form.Item>
      {item('realName')}
      {item('name')}
      {item('phone')}
      {item('email')}
      <Button type="primary" htmlType="submit" loading={saving}>
        {t('common.save')}
      </Button>
    </Form>
  );
}

interface Passwords {
  oldPassword: string;
  newPassword: string;
  newPassword1: string;
}

function PasswordTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Passwords>();
  const [saving, setSaving] = useState(false);
  const submit = async (v: Passwords) => {
    setSaving(true);
    try {
      await updatePassword(v.oldPassword, v.newPassword, v.newPassword1);
      message.success(t('profile.password.done'));
      form.resetFields();
      useSession.setState({ passwordChangeRequired: false });
    } catch (e) {
      console.error(e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxWidth: 520 }}
      onFinish={submit}
      disabled={saving}
      aria-label={t('profile.passwordTab')}
    >
      <Form.Item
        name="oldPassword"
        label={t('profile.password.old')}
        rules={[{ required: true, message: t('profile.password.oldRequired') }]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label={t('profile.password.new')}
        rules={[{ required: true, whitespace: true, message: t('profile.password.newRequired') }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="newPassword1"
        label={t('profile.password.confirm')}
        dependencies={['newPassword']}
        rules={[
          { required: true, message: t('profile.password.confirmRequired') },
          ({ getFieldValue }) => ({
            validator: async (_, value) => {
              if (value && value !== getFieldValue('newPassword'))
                throw new Error(t('profile.password.mismatch'));
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        {t('profile.password.submit')}
      </Button>
    </Form>
  );
}

export default function InfoPage() {
  const { t } = useTranslation();
  return (
    <Card variant="borderless">
      <h1 style={{ fontSize: 20, marginTop: 0 }}>{t('profile.title')}</h1>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'info', label: t('profile.infoTab'), children: <ProfileTab /> },
          { key: 'password', label: t('profile.passwordTab'), children: <PasswordTab /> },
        ]}
      />
    </Card>
  );
}
