/**
 * 素材管理: the account's permanent materials, a tab per type (图片 / 语音 / 视频 / 缩略图), each with WeChat's
 * limits for that type written out and checked in the browser before anything is sent (the file's size and
 * the kind its first bytes show: `materialFileProblem`, the server's `wxMaterialProblem`), an upload
 * (`POST wxMaterial/upload?type=`, a video with its title) and the list of that type. The usage against
 * WeChat's quotas is WeChat's own count (`GET wxMaterial/count`). A material is removed through `del/{id}`
 * (WeChat first): the generic removal does not apply to a definition WeChat writes.
 */
import './i18n';
import './mp-i18n';
import { UploadOutlined } from '@ant-design/icons';
import { WX_DICT, wxMaterialResource } from '@smart/contracts/wechat-mp';
import { WX_MATERIAL, WX_MATERIAL_RULES } from '@smart/contracts/wechat-rules';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Input, Progress, Tabs, Typography, Upload } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { useDict } from '../../platform/crud/dict';
import { getData, postData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';
import { can, useSession } from '../../platform/session/session';
import { AccountPicker } from './AccountPicker';
import { useWxAccounts, WX_API } from './accounts';
import { materialFileProblem, WX_MATERIAL_QUOTA } from './material-kind';

const BASE = `${WX_API}/${wxMaterialResource.path}`;
const CODE = wxMaterialResource.permission;
const TYPES = [WX_MATERIAL.image, WX_MATERIAL.voice, WX_MATERIAL.video, WX_MATERIAL.thumb];

type Counts = Record<string, number>;

function UploadBox({
  type,
  accountId,
  onUploaded,
}: {
  type: string;
  accountId: string | undefined;
  onUploaded: () => void;
}) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { message } = App.useApp();
  const rule = WX_MATERIAL_RULES[type];
  const video = type === WX_MATERIAL.video;
  const [title, setTitle] = useState('');
  const [introduction, setIntroduction] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (file: File) => {
    setRefused(null);
    const problem = await materialFileProblem(type, file);
    if (problem) {
      setRefused(t('wxmp.materials.refused', { name: file.name, why: problem[lang] }));
      return;
    }
    setBusy(true);
    try {
      const form = new FormData();
      form.set('file', file, file.name);
      await postData(`${BASE}/upload`, form, {
        type,
        accountId,
        ...(video ? { title: title.trim(), introduction } : {}),
      });
      message.success(t('wxmp.materials.uploaded'));
      setTitle('');
      setIntroduction('');
      onUploaded();
    } catch {
      // the http client has said why (WeChat's refusal, the server's check)
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex vertical gap={8} style={{ marginBottom: 12 }}>
      <Typography.Text type="secondary">{rule.limit[lang]}</Typography.Text>
      {can(`${CODE}_upload`) && (
        <Flex wrap gap={8} align="center">
          {video && (
            <>
              <Input
                aria-label={t('wxmp.materials.title')}
                placeholder={t('wxmp.materials.title')}
                value={title}
                maxLength={64}
                onChange={(e) => setTitle(e.target.value)}
                style={{ width: 220 }}
              />
              <Input
                aria-label={t('wxmp.materials.introduction')}
                placeholder={t('wxmp.materials.introduction')}
                value={introduction}
                maxLength={200}
                onChange={(e) => setIntroduction(e.target.value)}
                style={{ width: 280 }}
              />
            </>
          )}
          <Upload
            accept={rule.kinds.map((k) => `.${k}${k === 'jpg' ? ',.jpeg' : ''}`).join(',')}
            showUploadList={false}
            maxCount={1}
            beforeUpload={(file) => {
              void send(file);
              return false;
            }}
            disabled={busy || !accountId || (video && !title.trim())}
          >
            <Button
              icon={<UploadOutlined />}
              loading={busy}
              disabled={busy || !accountId || (video && !title.trim())}
            >
              {t('wxmp.materials.upload')}
            </Button>
          </Upload>
        </Flex>
      )}
      {refused && <Alert type="error" showIcon role="alert" title={refused} />}
    </Flex>
  );
}

function RemoveAction({ row, onRemoved }: { row: Row; onRemoved: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const name = String(row.title || row.name || row.id);
  return (
    <Button
      type="link"
      size="small"
      danger
      aria-label={t('wxmp.materials.removeOf', { name })}
      onClick={() =>
        modal.confirm({
          title: t('common.confirmTitle'),
          content: t('wxmp.materials.removeConfirm', { name }),
          okText: t('common.ok'),
          cancelText: t('common.cancel'),
          okButtonProps: { danger: true },
          onOk: async () => {
            await postData(`${BASE}/del/${row.id}`);
            message.success(t('common.deleted'));
            onRemoved();
          },
        })
      }
    >
      {t('common.delete')}
    </Button>
  );
}

export default function MaterialPage() {
  const { t } = useTranslation();
  useSession((s) => s.permission); // re-render when grants change
  const types = useDict(WX_DICT.wx_material_type).data ?? [];
  const { accounts, accountId, setAccountId } = useWxAccounts();
  // undefined while WeChat is asked, null when it could not be
  const [counts, setCounts] = useState<Counts | null | undefined>(undefined);
  const [version, setVersion] = useState(0);
  const [tab, setTab] = useState<string>(WX_MATERIAL.image);

  const count = useCallback(async (id: string) => {
    setCounts(await getData<Counts>(`${BASE}/count`, { accountId: id }, { silent: true }).catch(() => null));
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again after each change of the materials
  useEffect(() => {
    if (accountId) void count(accountId);
  }, [accountId, count, version]);
  const qc = useQueryClient();
  // WeChat's count again, and the lists read afresh (the list's own refresh)
  const changed = () => {
    setVersion((v) => v + 1);
    void qc.invalidateQueries({ queryKey: ['crud', wxMaterialResource.key] });
  };
  const typeName = (k: string) => types.find((e) => e.dictKey === k)?.dictValue ?? k;

  return (
    <Flex vertical gap={16}>
      <Card size="small" variant="borderless" title={t('wxmp.materials.usage')}>
        <Flex wrap gap={24} align="center">
          <AccountPicker accounts={accounts} accountId={accountId} onChange={setAccountId} />
          {counts === undefined ? (
            <Typography.Text type="secondary">{t('common.loading')}</Typography.Text>
          ) : counts === null ? (
            <Typography.Text type="secondary">{t('wxmp.materials.usageUnknown')}</Typography.Text>
          ) : (
            TYPES.filter((k) => WX_MATERIAL_QUOTA[k]).map((k) => {
              const { quota, counted } = WX_MATERIAL_QUOTA[k];
              const used = counts[counted] ?? 0;
              const label = t('wxmp.materials.used', { type: typeName(k), used, quota });
              return (
                <Flex key={k} vertical style={{ minWidth: 180 }}>
                  <Typography.Text>{label}</Typography.Text>
                  <Progress
                    percent={Math.min(100, (used / quota) * 100)}
                    showInfo={false}
                    size="small"
                    aria-label={label}
                  />
                </Flex>
              );
            })
          )}
        </Flex>
      </Card>
      <Card variant="borderless" styles={{ body: { padding: 16 } }}>
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={TYPES.map((k) => ({
            key: k,
            label: typeName(k),
            children: (
              <>
                <UploadBox type={k} accountId={accountId} onUploaded={changed} />
                <CrudPage
                  def={wxMaterialResource}
                  fixedFilters={{ type: k }}
                  frozen
                  rowActions={(row) =>
                    can(`${CODE}_delete`) ? <RemoveAction row={row} onRemoved={changed} /> : null
                  }
                />
              </>
            ),
          }))}
        />
      </Card>
    </Flex>
  );
}
