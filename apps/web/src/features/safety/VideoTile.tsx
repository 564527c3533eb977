/**
 * One tile of the video wall: its own camera picker and its own player. A tile that cannot play says why
 * (unreachable, a codec the browser cannot decode, a protocol it cannot play) instead of spinning, retries
 * an unreachable stream on its own with a growing pause (2, 4, 8 s) and offers 重试 / Retry; nothing it does
 * waits for or blocks another tile. While the page is hidden its player is destroyed (no stream is pulled
 * for nobody), and it opens again when the page is shown. Each camera put on a tile is logged once on the
 * server (camera/watch: who, which camera, when) when its stream starts playing — never for one that did
 * not. A recorded clip (the demo streams: a VOD playlist) loops. 放大 / Enlarge shows the camera in a dialog.
 */
import type { WallCamera } from '@smart/contracts/safety';
import { Button, Modal, Select, Space, Spin, Typography } from 'antd';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { postData } from '../../platform/http/client';
import { type Failure, openStream, refusedUpFront } from './players';
import type { safetyZh } from './strings';

/** pauses before the automatic retries of an unreachable stream */
const BACKOFF_MS = [2000, 4000, 8000];
/** a stream that shows no frame within this long is unreachable */
const START_TIMEOUT_MS = 20_000;

const subscribe = (fn: () => void) => {
  document.addEventListener('visibilitychange', fn);
  return () => document.removeEventListener('visibilitychange', fn);
};
/** whether the page is shown (false while its browser tab is hidden or minimised) */
export const usePageVisible = () =>
  useSyncExternalStore(
    subscribe,
    () => !document.hidden,
    () => true,
  );

type Status = 'loading' | 'playing' | 'failed' | 'paused';

const MESSAGES: Record<Failure, [keyof typeof safetyZh, keyof typeof safetyZh]> = {
  unreachable: ['unreachable', 'unreachableHint'],
  codec: ['codec', 'codecHint'],
  protocol: ['protocol', 'protocolHint'],
  noPlayer: ['noPlayer', 'protocolHint'],
};

/** The stream of one camera; remounted (a fresh player and count of retries) when the camera changes. */
/** where an opened stream is logged: the safety wall's watch log (null: not logged) */
const WATCH_URL = '/api/dfem-hope-manage/camera/watch';

function CameraStream({ cam, watch }: { cam: WallCamera; watch: string | null }) {
  const { t } = useTranslation();
  const visible = usePageVisible();
  const video = useRef<HTMLVideoElement>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [failure, setFailure] = useState<Failure>('unreachable');
  const [run, setRun] = useState({ nonce: 0, attempt: 0 });
  const [pending, setPending] = useState<number | null>(null);
  const logged = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: run.nonce restarts the stream on a retry
  useEffect(() => {
    const el = video.current;
    if (!el) return;
    if (!visible) {
      setStatus('paused');
      return;
    }
    setPending(null);
    const refused = refusedUpFront(cam, el);
    if (refused) {
      setFailure(refused);
      setStatus('failed');
      return;
    }
    setStatus('loading');
    let cancelled = false;
    // failed: the player is (or, once it has loaded, will be) torn down; a retry starts a new one
    let over = false;
    let stop: (() => void) | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    const failed = (why: Failure) => {
      if (cancelled || over) return;
      over = true;
      clearTimeout(watchdog);
      stop?.();
      setFailure(why);
      setStatus('failed');
      if (why === 'unreachable' && run.attempt < BACKOFF_MS.length) {
        const wait = BACKOFF_MS[run.attempt];
        setPending(wait / 1000);
        retryTimer = setTimeout(() => setRun((r) => ({ nonce: r.nonce + 1, attempt: r.attempt + 1 })), wait);
      }
    };
    const watchdog = setTimeout(() => failed('unreachable'), START_TIMEOUT_MS);
    openStream(el, cam, {
      onPlaying: () => {
        if (cancelled || over) return;
        clearTimeout(watchdog);
        setStatus('playing');
        // a view is logged once its first frames show: a stream that never played was not watched
        if (!logged.current && watch) {
          logged.current = true;
          void postData(watch, { cameraId: cam.id }, undefined, {
            silent: true,
          }).catch(() => {});
        }
      },
      onFail: failed,
    })
      .then((s) => {
        stop = s;
        // a player that loaded after the tile gave up (the watchdog) or was left is stopped at once
        if (cancelled || over) s();
      })
      .catch(() => failed('unreachable'));
    return () => {
      cancelled = true;
      clearTimeout(watchdog);
      clearTimeout(retryTimer);
      stop?.();
    };
  }, [cam, visible, run.nonce, watch]);

  const [title, hint] = MESSAGES[failure];
  return (
    <div style={{ position: 'relative', flex: 1, minHeight: 0, background: '#000' }}>
      <video
        ref={video}
        aria-label={cam.name}
        muted
        playsInline
        autoPlay
        loop
        style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }}
      />
      {status !== 'playing' && (
        <div
          style={{
            position: 'absolute',
            inset: 0,
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            justifyContent: 'center',
            gap: 8,
            padding: 12,
            textAlign: 'center',
            color: '#fff',
            background: 'rgba(0,0,0,0.6)',
          }}
        >
          {status === 'loading' && (
            <Space>
              <Spin size="small" />
              <span>{t('safety.connecting')}</span>
            </Space>
          )}
          {status === 'paused' && <span>{t('safety.paused')}</span>}
          {status === 'failed' && (
            <>
              <div role="alert" style={{ fontWeight: 600 }}>
                {t(`safety.${title}`)}
              </div>
              <Typography.Text style={{ color: 'rgba(255,255,255,0.75)', fontSize: 12 }}>
                {t(`safety.${hint}`)}
              </Typography.Text>
              {failure === 'unreachable' && (
                <Typography.Text style={{ color: 'rgba(255,255,255,0.75)', fontSize: 12 }}>
                  {pending !== null
                    ? t('safety.retrying', { s: pending, n: run.attempt + 1, max: BACKOFF_MS.length })
                    : run.attempt > 0
                      ? t('safety.gaveUp', { max: run.attempt })
                      : null}
                </Typography.Text>
              )}
              <Button size="small" onClick={() => setRun((r) => ({ nonce: r.nonce + 1, attempt: 0 }))}>
                {t('common.retry')}
              </Button>
            </>
          )}
        </div>
      )}
    </div>
  );
}

export function VideoTile({
  index,
  cameras,
  camera,
  onPick,
  watch = WATCH_URL,
}: {
  index: number;
  cameras: readonly WallCamera[];
  camera: WallCamera | undefined;
  onPick: (id: string | undefined) => void;
  /** where an opened stream is logged (the PV station page's cameras: null, the wall's log is not theirs) */
  watch?: string | null;
}) {
  const { t } = useTranslation();
  const label = t('safety.tile', { n: index + 1 });
  const [big, setBig] = useState(false);
  return (
    <section
      aria-label={label}
      style={{
        display: 'flex',
        flexDirection: 'column',
        flex: 1,
        minWidth: 0,
        minHeight: 0,
        border: '1px solid rgba(128,128,128,0.35)',
        borderRadius: 6,
        overflow: 'hidden',
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, padding: 6 }}>
        <Select
          aria-label={`${label} ${t('safety.pickCamera')}`}
          size="small"
          showSearch={{ optionFilterProp: 'label' }}
          allowClear
          // antd's placeholder grey is too faint to read (WCAG contrast): the secondary text colour instead
          placeholder={
            <span style={{ color: 'var(--ant-color-text-secondary, rgba(0, 0, 0, 0.65))' }}>
              {t('safety.pickCamera')}
            </span>
          }
          style={{ flex: 1, minWidth: 0 }}
          value={camera?.id}
          onChange={(v) => onPick(v ?? undefined)}
          options={cameras.map((c) => ({
            value: c.id,
            label: c.place ? `${c.name}(${c.place})` : c.name,
          }))}
        />
        {/* a plain mark, not antd's Tag: the Tag's chunk split would add bytes to every page's first load */}
        {camera && !camera.online && (
          <span
            style={{
              fontSize: 12,
              padding: '0 6px',
              border: '1px solid rgba(128,128,128,0.5)',
              borderRadius: 4,
            }}
          >
            {t('safety.offline')}
          </span>
        )}
        <Button size="small" disabled={!camera} onClick={() => setBig(true)}>
          {t('safety.enlarge')}
        </Button>
      </div>
      {/* the tile's camera, enlarged: a player of its own while the dialog is open */}
      <Modal
        open={big && !!camera}
        title={camera?.name}
        onCancel={() => setBig(false)}
        footer={null}
        width="80vw"
        destroyOnHidden
      >
        {camera && big && (
          <div style={{ height: '70vh', display: 'flex', flexDirection: 'column' }}>
            <CameraStream cam={camera} watch={watch} />
          </div>
        )}
      </Modal>
      {camera ? (
        <CameraStream key={camera.id} cam={camera} watch={watch} />
      ) : (
        <div
          style={{
            flex: 1,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            color: 'var(--ant-color-text-secondary, rgba(0, 0, 0, 0.65))',
            background: 'var(--ant-color-fill-quaternary, rgba(0, 0, 0, 0.02))',
          }}
        >
          {t('safety.noCamera')}
        </div>
      )}
    </section>
  );
}
