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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
