/**
 * A draft's editor: up to 8 articles as tabs, each with its title, author, digest, cover, source link,
 * comments switch and rich-text content, and a preview (DOMPurify-cleaned in the browser, as the server cleans
 * it again). Save sends the whole draft (`wxDraft/add` or `wxDraft/update`): the server cleans the HTML, moves
 * pictures to WeChat and stores what WeChat took; its refusal names the article and the field.
 */
import { WX_DRAFT_LIMITS, type WxDraftArticle, wxDraftProblem } from '@smart/contracts/wechat-drafts';
import { App, Button, Form, Input, Modal, Space, Switch, Tabs } from 'antd';
import DOMPurify from 'dompurify';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Row } from '../../../platform/crud/types';
import { getData, postData } from '../../../platform/http/client';
import { currentLanguage } from '../../../platform/i18n';
import { CoverPicker } from './CoverPicker';
import { RichEditor } from './RichEditor';

const API = '/api/dfem-hope-wx/wxDraft';

const blank = (): WxDraftArticle => ({
  title: '',
  author: '',
  digest: '',
  content: '',
  thumbMediaId: '',
  thumbUrl: '',
  contentSourceUrl: '',
  needOpenComment: 0,
});

export function DraftEditor({
  draft,
  open,
  onClose,
  onSaved,
}: {
  /** the draft edited; null for a new one */
  draft: Row | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [articles, setArticles] = useState<WxDraftArticle[]>([blank()]);
  const [active, setActive] = useState('0');
  const [saving, setSaving] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  const accountId = draft?.accountId ? String(draft.accountId) : undefined;

  useEffect(() => {
    if (!open) return;
    setActive('0');
    if (!draft) {
      setArticles([blank()]);
      return;
    }
    void getData<Row>(`${API}/detail`, { id: String(draft.id) }).then((d) => {
      try {
        const list = JSON.parse(String(d.articles ?? '[]')) as WxDraftArticle[];
        setArticles(list.length ? list : [blank()]);
      } catch {
        setArticles([blank()]);
      }
    });
  }, [open, draft]);

  const set = (i: number, patch: Partial<WxDraftArticle>) =>
    setArticles((list) => list.map((a, j) => (j === i ? { ...a, ...patch } : a)));

  const save = async () => {
    const problem = wxDraftProblem(articles);
    if (problem) {
      message.error(problem.message[currentLanguage()]);
      const m = /articles\[(\d+)\]/.exec(problem.path);
      if (m) setActive(m[1]);
      return;
    }
    setSaving(true);
    try {
      if (draft) await postData(`${API}/update`, { id: String(draft.id), articles });
      else await postData(`${API}/add`, { articles });
      message.success(t('wxpub.savedToDrafts'));
      onSaved();
    } catch {
      // the http client showed the server's reason (naming the article)
    } finally {
      setSaving(false);
    }
  };

  const items = articles.map((a, i) => {
    const n = t('wxpub.article', { n: i + 1 });
    const fid = (f: string) => `wx-article-${i}-${f}`;
    return {
      key: String(i),
      label: a.title ? `${i + 1}. ${a.title}` : n,
      children: (
        <Form layout="vertical" component="div">
          <Form.Item label={t('wxpub.title')} htmlFor={fid('title')} required>
            <Input
              id={fid('title')}
              value={a.title}
              maxLength={WX_DRAFT_LIMITS.title}
              showCount
              onChange={(e) => set(i, { title: e.target.value })}
            />
          </Form.Item>
          <Space wrap align="start" size="large">
            <Form.Item label={t('wxpub.author')} htmlFor={fid('author')}>
              <Input
                id={fid('author')}
                value={a.author}
                maxLength={WX_DRAFT_LIMITS.author}
                onChange={(e) => set(i, { author: e.target.value })}
              />
            </Form.Item>
            <Form.Item label={t('wxpub.cover')} htmlFor={fid('cover')} required>
              <CoverPicker
                id={fid('cover')}
                label={`${n} ${t('wxpub.cover')}`}
                value={a.thumbMediaId}
                accountId={accountId}
                onChange={(thumbMediaId, thumbUrl) => set(i, { thumbMediaId, thumbUrl })}
              />
            </Form.Item>
            <Form.Item label={t('wxpub.openComment')} htmlFor={fid('comment')}>
              <Switch
                id={fid('comment')}
                checked={Number(a.needOpenComment) === 1}
                onChange={(v) => set(i, { needOpenComment: v ? 1 : 0 })}
              />
            </Form.Item>
          </Space>
          <Form.Item label={t('wxpub.digest')} htmlFor={fid('digest')}>
            <Input.TextArea
              id={fid('digest')}
              value={a.digest}
              rows={2}
              maxLength={WX_DRAFT_LIMITS.digest}
              showCount
              onChange={(e) => set(i, { digest: e.target.value })}
            />
          </Form.Item>
          <Form.Item label={t('wxpub.sourceUrl')} htmlFor={fid('source')}>
            <Input
              id={fid('source')}
              value={a.contentSourceUrl}
              placeholder="https://"
              onChange={(e) => set(i, { contentSourceUrl: e.target.value })}
            />
          </Form.Item>
          <Form.Item label={t('wxpub.content')} required>
            <RichEditor
              value={a.content}
              accountId={accountId}
              label={t('wxpub.editorLabel', { title: n })}
              onChange={(content) => set(i, { content })}
            />
          </Form.Item>
          <Space>
            <Button onClick={() => setPreview(DOMPurify.sanitize(a.content))}>{t('wxpub.preview')}</Button>
            {articles.length > 1 && (
              <Button
                danger
                onClick={() => {
                  setArticles((list) => list.filter((_, j) => j !== i));
                  setActive('0');
                }}
              >
                {t('wxpub.removeArticle')}
              </Button>
            )}
          </Space>
        </Form>
      ),
    };
  });

  return (
    <>
      <Modal
        open={open}
        title={draft ? t('wxpub.editDraft') : t('wxpub.newDraft')}
        width={980}
        onCancel={onClose}
        destroyOnHidden
        maskClosable={false}
        footer={[
          <Button key="cancel" onClick={onClose}>
            {t('common.cancel')}
          </Button>,
          <Button key="save" type="primary" loading={saving} onClick={save}>
            {t('common.save')}
          </Button>,
        ]}
      >
        <Tabs
          activeKey={active}
          onChange={setActive}
          items={items}
          tabBarExtraContent={
            <Button
              size="small"
              disabled={articles.length >= WX_DRAFT_LIMITS.articles}
              title={articles.length >= WX_DRAFT_LIMITS.articles ? t('wxpub.maxArticles') : undefined}
              onClick={() => {
                setArticles((list) => [...list, blank()]);
                setActive(String(articles.length));
              }}
            >
              {t('wxpub.addArticle')}
            </Button>
          }
        />
      </Modal>
      <Modal
        open={preview !== null}
        title={t('wxpub.preview')}
        footer={null}
        onCancel={() => setPreview(null)}
      >
        {/* cleaned by DOMPurify just above */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: DOMPurify-cleaned preview of the editor's own HTML */}
        <div dangerouslySetInnerHTML={{ __html: preview ?? '' }} />
      </Modal>
    </>
  );
}
