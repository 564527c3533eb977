import { z } from 'zod';

/** Every setting the server reads, validated once at start. Unknown values fail fast with a clear message. */
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  /**
   * The prefix of this deployment's keys in Redis. Unset: one derived from the database (its URL, or the
   * PGlite folder), so the instances of one deployment share state and two deployments sharing a Redis
   * never see each other's sessions, locks or counters (their users may have the same ids).
   */
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, 'letters, digits and _ : . - only')
    .optional(),
  /**
   * List pages remembered until their tables change (the database notifies every server). Off behind a
   * connection pooler that cannot LISTEN (PgBouncer in transaction mode): every read then asks the database.
   */
  READ_CACHE: bool(true),
  CAPTCHA_MODE: bool(true),
  TENANT_MODE: bool(false),
  SWITCH_MODE: bool(false),
  TZ: z.string().default('Asia/Shanghai'),
  /** Seconds after which the web refreshes its access token (spec §9: 3000). */
  TOKEN_TIME: z.coerce.number().int().min(5).default(3000),
  /** HS256 signing key; when unset a random one is generated into DATA_DIR on first start. */
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Where the built web app lives; the server serves it when the folder exists. */
  WEB_DIST: z.string().optional(),
  /** How often each server looks for workflow timers that are due (milliseconds). */
  FLOW_TIMER_INTERVAL_MS: z.coerce.number().int().min(20).max(3_600_000).default(5000),
  /**
   * The addresses a workflow's `http` service task may call: a comma list of http(s) URLs
   * (`https://api.example.com/hooks/`), each allowing its origin (scheme, host, port) and the paths below its
   * own. Empty (the default): no service task calls anything.
   */
  FLOW_HTTP_ALLOW: z
    .string()
    .max(4000)
    .refine(
      (v) =>
        v
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean)
          .every((p) => URL.canParse(p) && /^https?:\/\/[^/@]+(\/|$)/i.test(p)),
      'a comma list of http(s) URLs (https://host[:port]/path), no credentials',
    )
    .default(''),
  /**
   * How many waiting instances' engines each server keeps in memory to continue at their next step instead
   * of recovering them from their saved state (0: every step recovers from the database).
   */
  FLOW_LIVE_ENGINES: z.coerce.number().int().min(0).max(10_000).default(200),
  /**
   * How long a monitored household's public notice stays up before the township identifies it (ISO 8601
   * duration; policy: at least five days). Shorter only for tests and demonstrations.
   */
  RELIEF_NOTICE_DURATION: z
    .string()
    .regex(/^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/, 'an ISO 8601 duration')
    .default('P5D'),
  /**
   * The MQTT broker devices publish their readings to (`mqtt://host:1883`); every server subscribes through a
   * shared subscription, so each reading is taken once. Unset: the server runs a broker of its own (aedes).
   */
  MQTT_URL: z
    .string()
    .regex(/^mqtts?:\/\/\S+$/, 'an mqtt:// or mqtts:// URL')
    .optional(),
  /** The embedded broker's port (only without MQTT_URL); 0: any free port; -1: no TCP listener at all. */
  MQTT_PORT: z.coerce.number().int().min(-1).max(65535).default(1883),
  /** The embedded broker's largest MQTT packet (bytes): a larger one ends its connection before it is read. */
  MQTT_MAX_PACKET_BYTES: z.coerce.number().int().min(1024).max(268_435_455).default(1_048_576),
  /** Publishes a second one device may send the embedded broker (bursts of ten times that): past it, disconnected. */
  MQTT_RATE_PER_DEVICE: z.coerce.number().min(0.1).max(10_000).default(20),
  /** Publishes a second the embedded broker takes from all devices together (bursts of twice that): past it, dropped. */
  MQTT_RATE_TOTAL: z.coerce.number().int().min(1).max(1_000_000).default(5_000),
  /** Connections one address may hold open on the embedded broker at once: past it, a new one is closed. */
  MQTT_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(256),
  /** How long readings gather before they are written in one batch (milliseconds). */
  TELEMETRY_FLUSH_MS: z.coerce.number().int().min(5).max(10_000).default(250),
  /** How often each server looks for devices silent past three report intervals (milliseconds). */
  TELEMETRY_OFFLINE_CHECK_MS: z.coerce.number().int().min(20).max(3_600_000).default(30_000),
  /** How often each server runs the telemetry storage job (compaction and retention; one server at a time does it). */
  TELEMETRY_COMPACT_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
  /**
   * `on`: the server itself publishes the demo devices' readings (the simulator, in-process), so a fresh
   * demo start shows live data. `npm start` turns it on; production leaves it off.
   */
  TELEMETRY_SIMULATOR: z.enum(['on', 'off']).default('off'),
  /**
   * Where the WeChat client sends the public account's API calls (WeChat's own by default). Unset while
   * WECHAT_SANDBOX is on: the sandbox's address.
   */
  WECHAT_API_BASE: z
    .string()
    .regex(/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/, 'an http(s) URL without credentials, query or fragment')
    .optional(),
  /**
   * `on`: the server runs the WeChat sandbox (modules/wechat/sandbox) on 127.0.0.1:WECHAT_SANDBOX_PORT and, unless
   * WECHAT_API_BASE says otherwise, talks to it; the demo account is known to it. `npm start` turns it on.
   */
  WECHAT_SANDBOX: z.enum(['on', 'off']).default('off'),
  WECHAT_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(8089),
  /**
   * `on`: the server runs the SMS sandbox (modules/resource/sms/sandbox.ts: the providers' send APIs and
   * their delivery receipts) on 127.0.0.1:SMS_SANDBOX_PORT, knowing the demo SMS config. `npm start` turns
   * it on.
   */
  SMS_SANDBOX: z.enum(['on', 'off']).default('off'),
  SMS_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(8090),
  /**
   * Where an SMS config's API address may point: `public` (the default) refuses addresses inside the
   * server's own network (loopback, private, link-local …), so a tenant's administrator cannot make the
   * server post to the intranet; `any` allows them (a provider gateway on the intranet). The SMS sandbox the
   * server runs itself is always reachable.
   */
  SMS_ENDPOINT_HOSTS: z.enum(['public', 'any']).default('public'),
  /** How often each server sends the alarms' messages waiting in the SMS outbox (milliseconds). */
  SMS_OUTBOX_INTERVAL_MS: z.coerce.number().int().min(20).max(3_600_000).default(2_000),
  /**
   * The address the outside world reaches this server at (an SMS provider's delivery receipts are posted
   * there): `https://admin.example.com`. Unset: http://127.0.0.1:PORT.
   */
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/, 'an http(s) URL without credentials, query or fragment')
    .optional(),
  /**
   * Where a draft's pictures may be downloaded from before they go to WeChat: `public` (the default) refuses
   * addresses in the server's own network (loopback, private, link-local …: an article must not reach the
   * intranet or the cloud's metadata through the server); `any` allows them (pictures on an intranet server).
   */
  WECHAT_IMAGE_FETCH: z.enum(['public', 'any']).default('public'),
  /**
   * `on`: the demo cameras' streams are made at start, in the background, into DATA_DIR/demo-video (with
   * ffmpeg when the machine has it, else the clip shipped with the server) and served at /demo-video/…
   * (modules/safety/demo-video.ts). `off`: not made (a deployment without the demo's cameras; the tests).
   */
  DEMO_VIDEO: z.enum(['on', 'off']).default('on'),
  /** The largest video upload (a `video` field: care videos), in MB. */
  VIDEO_MAX_MB: z.coerce.number().int().min(1).max(2048).default(200),
  /**
   * How long an uploaded file may wait for a record to name it before the sweep removes it (minutes); a file
   * a record names is looked at again once per this period. 0 only for tests.
   */
  UPLOAD_GRACE_MINUTES: z.coerce.number().min(0).max(525_600).default(1440),
  /** How often each server sweeps the uploads no record names (milliseconds). */
  UPLOAD_SWEEP_INTERVAL_MS: z.coerce.number().int().min(20).max(86_400_000).default(3_600_000),
  /**
   * The font the reports' PDFs are drawn in: it must hold Chinese (a TrueType or OpenType file, or a
   * collection). Missing: a PDF export answers 503 naming this setting; everything else works.
   */
  REPORT_FONT: z.string().min(1).default('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'),
  /** the face of REPORT_FONT when it is a collection (.ttc, .otc), by PostScript name */
  REPORT_FONT_FACE: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, 'a PostScript font name')
    .default('NotoSansCJKsc-Regular'),
  /**
   * On SIGTERM, how long the server goes on serving while `/api/ready` already answers 503 (milliseconds),
   * so that a proxy checking it takes this instance out before it stops accepting connections. 0: at once.
   */
  DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(300_000).default(0),
  /** On SIGTERM, how long requests in flight may take to finish before the process exits anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Which proxies' X-Forwarded-For is believed (the client address of the audit log and of the sign-in
   * throttles): unset = none, the peer is the client. A number of hops (`1`), or the proxies' addresses and
   * CIDRs (`10.0.0.1,10.1.0.0/16`; `loopback`, `uniquelocal` as Fastify knows them). Never `true`: any client
   * could then write its own address.
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(\d{1,2}|[0-9A-Za-z.:/_,\s-]+)$/, 'a hop count or a comma list of proxy addresses')
    .refine((v) => !['true', 'yes', 'on', '*'].includes(v.trim().toLowerCase()), 'trust named proxies only')
    .optional()
    .transform((v) => {
      const s = v?.trim();
      if (!s || s === 'false' || s === '0')
        return false as false | string | ((address: string, hop: number) => boolean);
      if (!/^\d+$/.test(s)) return s;
      // the n proxies nearest the server are believed
      const hops = Number(s);
      return (_address: string, hop: number) => hop < hops;
    }),
});

export type Config = z.infer<typeof ConfigSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
