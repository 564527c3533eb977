/**
 * Videos: a `video` field's upload (one MP4 or WebM file, at most 200 MB, checked by content on the server,
 * which issues the path kept), its cell and view, and the player a screen opens for a video that is either
 * an uploaded file or an address (a `videoUrl`). The player is the browser's own `<video controls>`:
 * keyboard accessible and labelled. A live stream (.m3u8) plays where the browser can play HLS natively;
 * elsewhere it is pointed at the safety video wall (which carries an HLS player).
 */
import { DeleteOutlined, PlaySquareOutlined, UploadOutlined } from '@ant-design/icons';
import { VIDEO_MAX_BYTES } from '@smart/contracts/core';
import { Alert, App, Button, Progress, Space, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadFor, uploadWithProgress } from './transfer';
import type { FieldControlProps } from './types';
import { baseName } from './values';

const UPLOAD_URL = '/api/dfem-hope-manage/file/video';
const ACCEPT = '.mp4,.webm,video/mp4,video/webm';

/** A path the server issued for an uploaded video, or an http(s) address of one. */
const isOwnVideo = (v: string) =>
  /^\/api\/dfem-hope-manage\/file\/video\/[0-9a-f-]{36}\.(?:mp4|webm)$/.test(v);
const isWebAddress = (v: string) => /^https?:\/\//i.test(v);
const isHls = (v: string) => /\.m3u8(?:$|[?#])/i.test(v);

/** The upload control: the video uploaded (with a remove button), or an upload button with its progress. */
export function VideoField({
  field,
  resource,
  value,
  onChange,
  disabled,
  id,
  placeholder,
}: FieldControlProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [percent, setPercent] = useState<number | null>(null);
  const current = typeof value === 'string' && value ? value : '';
  return (
    <div id={id}>
      {current ? (
        <Space wrap>
          <span>
            <PlaySquareOutlined aria-hidden /> {t('crud.videoUploaded')}: {baseName(current)}
          </span>
          {!disabled && (
            <Button
              size="small"
              icon={<DeleteOutlined aria-hidden />}
              onClick={() => onChange?.('')}
              aria-label={`${t('crud.videoRemove')} · ${placeholder}`}
            >
              {t('crud.videoRemove')}
            </Button>
          )}
        </Space>
      ) : (
        !disabled && (
          <Upload
            accept={ACCEPT}
            showUploadList={false}
            beforeUpload={(file) => {
              if (file.size > VIDEO_MAX_BYTES) {
                message.error(`${file.name}: ${t('crud.videoHint')}`);
                return Upload.LIST_IGNORE;
              }
              return true;
            }}
            customRequest={async ({ file, onSuccess, onError }) => {
              const form = new FormData();
              form.append('file', file as File);
              setPercent(0);
              try {
                // the server's refusal (size, kind) is shown by uploadWithProgress
                const { url } = await uploadWithProgress<{ url: string }>(
                  UPLOAD_URL,
                  form,
                  uploadFor(resource, field),
                  setPercent,
                );
                onChange?.(url);
                onSuccess?.({ url });
              } catch (e) {
                onError?.(e as Error);
              } finally {
                setPercent(null);
              }
            }}
          >
            <Button
              icon={<UploadOutlined aria-hidden />}
              loading={percent !== null}
              aria-label={`${t('crud.videoUpload')} · ${placeholder}`}
            >
              {t('crud.videoUpload')}
            </Button>
          </Upload>
        )
      )}
      {percent !== null && <Progress percent={percent} size="small" aria-label={t('crud.videoUpload')} />}
      {!disabled && !current && (
        <div style={{ color: '#8c8c8c', fontSize: 12, marginTop: 4 }}>{t('crud.videoHint')}</div>
      )}
    </div>
  );
}

/** A table cell: the uploaded file's name. */
export function VideoCell({ value }: { value: unknown }) {
  return value ? <span>{baseName(String(value))}</span> : null;
}

/**
 * The player: the first playable source of `sources` (an uploaded file first, then an address), in the
 * browser's own controls, labelled with `label`; an HLS address the browser cannot play is explained.
 */
export function VideoPlayer({
  sources,
  label,
  autoPlay,
}: {
  sources: unknown[];
  label: string;
  autoPlay?: boolean;
}) {
  const { t } = useTranslation();
  const src = sources
    .map((s) => (typeof s === 'string' ? s.trim() : ''))
    .find((s) => isOwnVideo(s) || isWebAddress(s));
  if (!src) return <Alert type="info" showIcon title={t('crud.videoNone')} />;
  const link = isWebAddress(src) && (
    <a href={src} target="_blank" rel="noopener noreferrer" aria-label={t('crud.videoOpen')}>
      {src}
    </a>
  );
  if (isHls(src) && !document.createElement('video').canPlayType('application/vnd.apple.mpegurl'))
    return (
      <div>
        <Alert type="info" showIcon title={t('crud.videoHls')} />
        <div style={{ marginTop: 8, wordBreak: 'break-all' }}>{link}</div>
      </div>
    );
  return (
    <div>
      {/* biome-ignore lint/a11y/useMediaCaption: care videos are uploaded without captions */}
      <video
        controls
        autoPlay={autoPlay}
        preload="metadata"
        src={src}
        aria-label={label}
        style={{ width: '100%', maxHeight: 480, background: '#000' }}
      />
      {link && <div style={{ marginTop: 8, wordBreak: 'break-all' }}>{link}</div>}
    </div>
  );
}
