/**
 * An article's rich-text editor (tiptap: paragraphs, headings, emphasis, lists, quotes, links, pictures) whose
 * HTML the server cleans to WeChat's allow-list. A picture inserted from the computer goes to WeChat at once
 * (`wxDraft/uploadimg`: media/uploadimg) and its URL is what the article holds. Every tool is a button with
 * its name (keyboard and screen readers), and the content's length against WeChat's 20 000 characters shows
 * below.
 */
import { WX_DRAFT_LIMITS } from '@smart/contracts/wechat-drafts';
import Image from '@tiptap/extension-image';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { App, Button, Space, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../../platform/http/client';
import type { wxpubZh } from './strings';

const UPLOAD = '/api/dfem-hope-wx/wxDraft/uploadimg';

export function RichEditor({
  value,
  onChange,
  label,
  accountId,
}: {
  value: string;
  onChange: (html: string) => void;
  label: string;
  accountId?: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const file = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const editor = useEditor({
    extensions: [StarterKit, Image.configure({ inline: false })],
    content: value,
    editorProps: {
      attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true', class: 'wx-rich' },
    },
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
  });
  // another article's content arrives (the tabs share nothing, but a reset does)
  useEffect(() => {
    if (editor && value !== editor.getHTML()) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  const insertPicture = async (f: File) => {
    setUploading(true);
    try {
      const body = new FormData();
      body.append('file', f);
      const res = await request<{ data: { url: string } }>(UPLOAD, {
        method: 'POST',
        body,
        params: accountId ? { accountId } : undefined,
      });
      editor?.chain().focus().setImage({ src: res.data.url, alt: f.name }).run();
    } catch {
      // the http client showed WeChat's or the server's reason
    } finally {
      setUploading(false);
      if (file.current) file.current.value = '';
    }
  };

  const tool = (key: keyof typeof wxpubZh, text: string, run: () => void, active = false) => (
    <Tooltip title={t(`wxpub.${key}`)} key={key}>
      <Button
        size="small"
        type={active ? 'primary' : 'default'}
        aria-label={t(`wxpub.${key}`)}
        aria-pressed={active}
        onClick={run}
        disabled={!editor}
      >
        {text}
      </Button>
    </Tooltip>
  );
  const chain = () => editor?.chain().focus();
  const length = value.length;
  return (
    <div>
      <Space wrap size={4} style={{ marginBottom: 8 }} role="toolbar" aria-label={label}>
        {tool('bold', 'B', () => chain()?.toggleBold().run(), editor?.isActive('bold'))}
        {tool('italic', 'I', () => chain()?.toggleItalic().run(), editor?.isActive('italic'))}
        {tool('heading', 'H', () => chain()?.toggleHeading({ level: 2 }).run(), editor?.isActive('heading'))}
        {tool('bulletList', '•', () => chain()?.toggleBulletList().run(), editor?.isActive('bulletList'))}
        {tool('orderedList', '1.', () => chain()?.toggleOrderedList().run(), editor?.isActive('orderedList'))}
        {tool('quote', '“”', () => chain()?.toggleBlockquote().run(), editor?.isActive('blockquote'))}
        {tool('undo', '↶', () => chain()?.undo().run())}
        {tool('redo', '↷', () => chain()?.redo().run())}
        <Button size="small" loading={uploading} onClick={() => file.current?.click()} disabled={!editor}>
          {t('wxpub.insertImage')}
        </Button>
        <input
          ref={file}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp,image/bmp"
          style={{ display: 'none' }}
          aria-label={t('wxpub.insertImage')}
          data-testid="wx-insert-image"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void insertPicture(f);
            else message.info(t('wxpub.insertImage'));
          }}
        />
      </Space>
      <div
        style={{
          border: '1px solid var(--ant-color-border, #d9d9d9)',
          borderRadius: 6,
          padding: '4px 12px',
          minHeight: 220,
          maxHeight: 420,
          overflow: 'auto',
        }}
      >
        <EditorContent editor={editor} />
      </div>
      <Typography.Text
        type={length >= WX_DRAFT_LIMITS.contentChars ? 'danger' : 'secondary'}
        style={{ fontSize: 12 }}
      >
        {t('wxpub.contentSize', { n: length })}
      </Typography.Text>
    </div>
  );
}
