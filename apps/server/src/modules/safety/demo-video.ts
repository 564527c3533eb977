import { spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { cp, mkdir, rename, rm, stat } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { notFound } from '../../platform/http/errors';
import { serverRoot } from '../../platform/paths';

/**
 * The demo cameras' streams, served by the product itself: each a short H.264 (baseline) HLS clip, a VOD
 * playlist the wall's player loops, made at start into DATA_DIR/demo-video/<name>/ with ffmpeg when the
 * machine has it (a test picture and the camera's name drawn on it), else copied from the clip shipped with
 * the server (assets/demo-video). Made in the background, one at a time and at a low priority: start-up
 * never waits for it, and until a stream is there its path answers 404 — the wall's "cannot connect"
 * state, retried by the tile. Served same-origin under /demo-video/<name>/ without a token (a <video> cannot
 * send one), like uploads: only the names below and the files a playlist names, nothing else of the folder.
 * The seeded cameras (safety and power) point at these paths.
 */

/** the demo streams: name (its path) → the label drawn on its picture, and the picture ffmpeg draws */
export const DEMO_STREAMS = {
  gate: ['DEMO  GATE', 'testsrc'],
  square: ['DEMO  SQUARE', 'smptebars'],
  school: ['DEMO  SCHOOL', 'testsrc2'],
  river: ['DEMO  RIVER', 'testsrc'],
  west: ['DEMO  WEST ROAD', 'smptebars'],
  'pv-1': ['DEMO  PV STATION 1', 'testsrc2'],
  'pv-2': ['DEMO  PV STATION 2', 'testsrc'],
} as const satisfies Record<string, readonly [label: string, source: string]>;
export type DemoStream = keyof typeof DEMO_STREAMS;

/** where a demo stream is served (same origin as the console) */
export const demoStreamUrl = (name: DemoStream) => `/demo-video/${name}/index.m3u8`;

const isDemoStream = (name: string): name is DemoStream => Object.hasOwn(DEMO_STREAMS, name);
/** the files of a stream: its playlist and its segments */
const STREAM_FILE = /^(?:index\.m3u8|seg\d{3,5}\.ts)$/;
/** the clip shipped with the server, for a machine without ffmpeg (a few seconds, well under 300 KB) */
export const SHIPPED_CLIP = join(serverRoot, 'assets', 'demo-video');
/** seconds of picture per stream, and per segment */
const CLIP_SECONDS = 8;
const SEGMENT_SECONDS = 2;
/** an encode that has not finished by then is stopped (the shipped clip is used instead) */
const ENCODE_TIMEOUT_MS = 120_000;

/** ffmpeg's arguments for a stream: `label` drawn on the picture unless null */
function ffmpegArgs(name: DemoStream, dir: string, label: boolean): string[] {
  const [text, source] = DEMO_STREAMS[name];
  const draw = `drawtext=text='${text}':fontcolor=white:fontsize=22:box=1:boxcolor=black@0.6:boxborderw=6:x=12:y=12`;
  return [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
    ...['-f', 'lavfi', '-i', `${source}=duration=${CLIP_SECONDS}:size=480x270:rate=15`],
    ...(label ? ['-vf', draw] : []),
    ...['-c:v', 'libx264', '-profile:v', 'baseline', '-level', '3.0', '-preset', 'veryfast'],
    ...['-pix_fmt', 'yuv420p', '-g', '30', '-keyint_min', '30', '-sc_threshold', '0'],
    ...['-b:v', '200k', '-maxrate', '250k', '-bufsize', '500k'],
    ...['-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_list_size', '0'],
    ...['-hls_playlist_type', 'vod', '-hls_segment_filename', join(dir, 'seg%03d.ts')],
    join(dir, 'index.m3u8'),
  ];
}

/** Runs ffmpeg; resolves true when it made the stream, false when it failed, 'missing' without ffmpeg. */
function runFfmpeg(
  ffmpeg: string,
  args: string[],
  log: FastifyBaseLogger,
): Promise<true | false | 'missing'> {
  return new Promise((done) => {
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (d: Buffer) => {
      if (errors.length < 2000) errors += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), ENCODE_TIMEOUT_MS);
    child.once('spawn', () => {
      try {
        // a background job: the requests of the people using the console come first
        if (child.pid) setPriority(child.pid, 15);
      } catch {
        /* not allowed here: it runs at the server's priority */
      }
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      done(err.code === 'ENOENT' ? 'missing' : false);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) log.warn({ code, errors: errors.trim() }, 'demo video: ffmpeg failed');
      done(code === 0);
    });
  });
}

export class DemoVideo {
  readonly root: string;
  private making: Promise<void> | undefined;
  constructor(
    dataDir: string,
    private readonly log: FastifyBaseLogger,
    /** the ffmpeg program (a path, or a name looked up on PATH) */
    private readonly ffmpeg = 'ffmpeg',
  ) {
    this.root = resolve(dataDir, 'demo-video');
  }

  /** Makes the streams that are not there yet (once per server; later calls answer the same promise). */
  make(): Promise<void> {
    this.making ??= this.makeAll().catch((err) => this.log.error({ err }, 'demo video'));
    return this.making;
  }

  /** the folder of a stream */
  dirOf(name: DemoStream) {
    return join(this.root, name);
  }

  private async makeAll() {
    const started = performance.now();
    let ffmpeg = true;
    const made: string[] = [];
    for (const name of Object.keys(DEMO_STREAMS) as DemoStream[]) {
      const dir = this.dirOf(name);
      if (existsSync(join(dir, 'index.m3u8'))) continue;
      // made aside and moved in whole: a playlist is never served before its segments
      const tmp = join(this.root, `.${name}-${process.pid}-${Date.now()}`);
      await mkdir(tmp, { recursive: true });
      let ok = false;
      if (ffmpeg) {
        let r = await runFfmpeg(this.ffmpeg, ffmpegArgs(name, tmp, true), this.log);
        // without a font for the label: the picture alone
        if (r === false) r = await runFfmpeg(this.ffmpeg, ffmpegArgs(name, tmp, false), this.log);
        if (r === 'missing') ffmpeg = false;
        ok = r === true;
      }
      if (!ok) {
        await rm(tmp, { recursive: true, force: true });
        await cp(SHIPPED_CLIP, tmp, { recursive: true });
      }
      try {
        await rename(tmp, dir);
        made.push(name);
      } catch {
        // another server on this data folder made it first
        await rm(tmp, { recursive: true, force: true });
      }
    }
    if (made.length)
      this.log.info(
        { streams: made, ffmpeg, ms: Math.round(performance.now() - started) },
        `demo video streams ready (${ffmpeg ? 'made with ffmpeg' : 'the shipped clip'})`,
      );
  }
}

const CONTENT_TYPES = { m3u8: 'application/vnd.apple.mpegurl', ts: 'video/mp2t' } as const;

/**
 * GET /demo-video/<name>/<file>: a demo stream's playlist or segment, no token. Only a demo stream's name
 * and a stream's file name pass (no other path, no `..`); anything else, or a stream not made yet, is 404.
 */
export function demoVideoRoutes(app: FastifyInstance, video: DemoVideo) {
  app.get<{ Params: { name: string; file: string } }>(
    '/demo-video/:name/:file',
    { config: { public: true } },
    async (req, reply) => {
      const { name, file } = req.params;
      if (!isDemoStream(name) || !STREAM_FILE.test(file)) throw notFound();
      const path = join(video.dirOf(name), file);
      const s = await stat(path).catch(() => null);
      if (!s?.isFile()) throw notFound();
      const playlist = file.endsWith('.m3u8');
      return reply
        .header('content-type', playlist ? CONTENT_TYPES.m3u8 : CONTENT_TYPES.ts)
        .header('content-length', String(s.size))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', playlist ? 'no-cache' : 'public, max-age=86400')
        .send(createReadStream(path));
    },
  );
}
