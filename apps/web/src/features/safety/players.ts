/**
 * Opening a camera's stream in a <video>: HLS through hls.js wherever Media Source is there, else through the
 * browser itself where it plays HLS (`canPlayType('application/vnd.apple.mpegurl')`: iPhone Safari);
 * HTTP-FLV through mpegts.js. hls.js comes first even where the browser says it plays HLS (Safari, and
 * Chromium since its own HLS player): it tells a codec the browser cannot decode from a stream it cannot
 * reach, which a native player's one `error` event does not. Both libraries
 * are dynamic imports here, so they load with the first tile that plays a stream of their kind — never with
 * the shell, /login or any other page. What fails is reported as a reason the tile can put in words:
 * the stream cannot be reached, or the browser cannot decode its codec (H.265 in most browsers).
 */
import { CAMERA_CODEC, streamPlayer, type WallCamera } from '@smart/contracts/safety';

export type Failure = 'unreachable' | 'codec' | 'protocol' | 'noPlayer';

export interface StreamEvents {
  /** frames are being shown */
  onPlaying: () => void;
  /** the stream failed; the player is already torn down */
  onFail: (why: Failure) => void;
}

const HLS_MIME = 'application/vnd.apple.mpegurl';
const H265_PROBE = 'video/mp4; codecs="hvc1.1.6.L93.B0"';

const mse = (): typeof MediaSource | undefined =>
  (globalThis as { ManagedMediaSource?: typeof MediaSource }).ManagedMediaSource ?? globalThis.MediaSource;

/** Whether this browser can decode a codec string (`avc1.64001e`, `hvc1…`) through Media Source. */
export function codecPlayable(codec: string): boolean {
  const m = mse();
  return !!m && m.isTypeSupported(`video/mp4; codecs="${codec}"`);
}

/** Whether this browser can play H.265 at all (natively or through Media Source). */
export function h265Playable(video: HTMLVideoElement): boolean {
  return !!mse()?.isTypeSupported(H265_PROBE) || video.canPlayType(H265_PROBE) !== '';
}

/** What stops a camera from being tried at all: an RTSP/RTMP address, or H.265 this browser cannot decode. */
export function refusedUpFront(cam: WallCamera, video: HTMLVideoElement): Failure | null {
  if (streamPlayer(cam.streamUrl, cam.streamKind) === 'none') return 'protocol';
  if (cam.codec === CAMERA_CODEC.h265 && !h265Playable(video)) return 'codec';
  return null;
}

const isCodecDetail = (detail: unknown) => /codec/i.test(String(detail ?? ''));

/**
 * Starts the camera's stream in `video`; answers the function that stops it (destroys the player and
 * releases the element). `onFail` is called at most once, after which the stream is already stopped.
 */
export async function openStream(video: HTMLVideoElement, cam: WallCamera, ev: StreamEvents) {
  let stopped = false;
  let stopPlayer: () => void = () => {};
  const stop = () => {
    if (stopped) return;
    stopped = true;
    video.removeEventListener('playing', playing);
    video.removeEventListener('ended', again);
    video.removeEventListener('error', nativeError);
    try {
      stopPlayer();
    } catch {
      // a player that failed half-way may throw while it is torn down: it is gone either way
    }
    video.removeAttribute('src');
    video.load();
  };
  const fail = (why: Failure) => {
    if (stopped) return;
    stop();
    ev.onFail(why);
  };
  const playing = () => {
    if (!stopped) ev.onPlaying();
  };
  const nativeError = () => fail(video.error?.code === MediaError.MEDIA_ERR_DECODE ? 'codec' : 'unreachable');
  const play = () => void video.play().catch(() => {});
  // a recorded clip (a VOD playlist, the demo streams) plays again from its start, where `loop` did not
  const again = () => {
    if (stopped) return;
    video.currentTime = 0;
    play();
  };
  video.addEventListener('playing', playing);
  video.addEventListener('ended', again);
  const kind = streamPlayer(cam.streamUrl, cam.streamKind);

  if (kind === 'hls' && !mse() && video.canPlayType(HLS_MIME)) {
    video.addEventListener('error', nativeError);
    video.src = cam.streamUrl;
    play();
    return stop;
  }
  if (kind === 'hls') {
    const { default: Hls } = await import('hls.js');
    if (stopped) return stop;
    if (!Hls.isSupported()) {
      fail('noPlayer');
      return stop;
    }
    const hls = new Hls({
      // the tile retries on its own schedule: one quick attempt each here, then the tile's backoff
      manifestLoadingMaxRetry: 1,
      manifestLoadingTimeOut: 8000,
      levelLoadingMaxRetry: 2,
      fragLoadingMaxRetry: 2,
      lowLatencyMode: false,
      backBufferLength: 30,
    });
    stopPlayer = () => hls.destroy();
    hls.on(Hls.Events.MANIFEST_PARSED, (_e, data) => {
      const codecs = data.levels.map((l) => l.videoCodec).filter((c): c is string => !!c);
      if (codecs.length && !codecs.some(codecPlayable)) return fail('codec');
      play();
    });
    hls.on(Hls.Events.ERROR, (_e, data) => {
      if (isCodecDetail(data.details) || (data.error && isCodecDetail(data.error.message))) {
        if (data.fatal || data.type === Hls.ErrorTypes.MEDIA_ERROR) return fail('codec');
      }
      if (data.fatal) fail(data.type === Hls.ErrorTypes.MEDIA_ERROR ? 'codec' : 'unreachable');
    });
    hls.loadSource(cam.streamUrl);
    hls.attachMedia(video);
    return stop;
  }
  // HTTP-FLV
  const { default: mpegts } = await import('mpegts.js');
  if (stopped) return stop;
  if (!mpegts.isSupported()) {
    fail('noPlayer');
    return stop;
  }
  const player = mpegts.createPlayer(
    { type: 'flv', isLive: true, cors: true, url: cam.streamUrl },
    { enableWorker: false, lazyLoad: false, liveBufferLatencyChasing: true },
  );
  stopPlayer = () => {
    player.pause();
    player.unload();
    player.detachMediaElement();
    player.destroy();
  };
  player.on(mpegts.Events.ERROR, (type: string, detail: string) => {
    if (
      detail === mpegts.ErrorDetails.MEDIA_CODEC_UNSUPPORTED ||
      detail === mpegts.ErrorDetails.MEDIA_FORMAT_UNSUPPORTED ||
      (type === mpegts.ErrorTypes.MEDIA_ERROR && detail === mpegts.ErrorDetails.MEDIA_MSE_ERROR)
    )
      return fail('codec');
    fail('unreachable');
  });
  player.on(mpegts.Events.MEDIA_INFO, (info: { videoCodec?: string }) => {
    if (info.videoCodec && !codecPlayable(info.videoCodec)) fail('codec');
  });
  player.attachMediaElement(video);
  player.load();
  play();
  return stop;
}
