// The configuration contract of architecture.md: every variable validated once at start-up.
import { isIP } from 'node:net';
import { z } from 'zod';
import { VERSION } from './version.ts';
import { ConfigError } from './config-error.ts';
import { DEFAULT_DEADLINE_MS, DEFAULT_UPSTREAM_TIMEOUT_MS } from './providers/deadline.ts';
import { loadOperationsOverride } from './providers/x/operation-table.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((u) => u.replace(/\/+$/, ''));

/** An address or CIDR block: `10.0.0.0/8`, `192.168.1.1`, `2001:db8::/32`. */
function isAddressOrBlock(s: string): boolean {
  const [addr = '', bits, ...rest] = s.split('/');
  const family = isIP(addr);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^[0-9]{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Which forwarding hops to trust. false/0: none (the socket address is the client). true: exactly one, the proxy
 * in front (deliberately not Fastify's "trust every hop", which makes the client-written leftmost entry the
 * identity). A number: that many hops. Otherwise a comma-separated list of proxy addresses or CIDR blocks.
 */
const trustProxy = z.string().transform((v, ctx): false | number | string[] => {
  const t = v.trim().toLowerCase();
  if (['false', 'no', '0'].includes(t)) return false;
  if (['true', 'yes'].includes(t)) return 1;
  if (/^[0-9]+$/.test(t)) {
    const n = Number(t);
    if (n <= 32) return n;
  }
  const list = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (list.length > 0 && list.every(isAddressOrBlock)) return list;
  ctx.addIssue({
    code: 'custom',
    message: 'must be false, true, a hop count (1-32) or a comma-separated list of proxy addresses or CIDR blocks',
  });
  return z.NEVER;
});

const PROVIDER_NAMES = ['fxtwitter', 'syndication', 'x'] as const;

const schema = z.object({
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  THREADMARK_BASE_URL: httpUrl.optional(),
  THREADMARK_FXTWITTER_URL: httpUrl.default('https://api.fxtwitter.com'),
  THREADMARK_SYNDICATION_URL: httpUrl.default('https://cdn.syndication.twimg.com'),
  THREADMARK_X_API_URL: httpUrl.default('https://x.com/i/api'),
  THREADMARK_X_SESSIONS: z.string().min(1).optional(),
  THREADMARK_X_OPERATIONS: z.string().min(1).optional(),
  THREADMARK_X_DISCOVER: bool.default(false),
  THREADMARK_X_WEB_URL: httpUrl.default('https://x.com'),
  THREADMARK_PROVIDERS: z
    .string()
    .default('fxtwitter,syndication,x')
    .transform((s) =>
      s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.enum(PROVIDER_NAMES, { error: `must list providers among ${PROVIDER_NAMES.join(', ')}` }))
        .min(1, 'must name at least one provider'),
    ),
  THREADMARK_REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  THREADMARK_REDIS_PREFIX: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  THREADMARK_KEYS_DB: z.string().min(1).default('./data/keys.db'),
  THREADMARK_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  THREADMARK_OPS_PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).optional(),
  THREADMARK_TRUST_PROXY: trustProxy.default(false),
  THREADMARK_CACHE_TTL_S: z.coerce
    .number({ error: 'must be a number of seconds' })
    .int()
    .min(0)
    .max(86400 * 7)
    .default(300),
  THREADMARK_RESPONSE_CACHE_MB: z.coerce
    .number({ error: 'must be a number of megabytes' })
    .int()
    .min(1)
    .max(4096)
    .default(40),
  THREADMARK_CURSOR_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  THREADMARK_UPSTREAM_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .min(100)
    .max(60000)
    .default(DEFAULT_UPSTREAM_TIMEOUT_MS),
  THREADMARK_UPSTREAM_DEADLINE_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .min(100)
    .max(300000)
    .optional(),
  THREADMARK_UPSTREAM_RETRIES: z.coerce.number({ error: 'must be a whole number' }).int().min(0).max(5).default(2),
  THREADMARK_UPSTREAM_BACKOFF_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .min(1)
    .max(10000)
    .default(250),
  THREADMARK_UPSTREAM_MAX_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(5 * 1024 * 1024),
  THREADMARK_BREAKER_THRESHOLD: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(1000).default(5),
  THREADMARK_BREAKER_COOLDOWN_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .min(10)
    .max(3_600_000)
    .default(30_000),
  THREADMARK_EXPORT_TIME_LIMIT_S: z.coerce
    .number({ error: 'must be a number of seconds' })
    .int()
    .min(1)
    .max(3600)
    .default(300),
  THREADMARK_USER_AGENT: z
    .string()
    .min(1)
    .max(300)
    .regex(/^[\x20-\x7e]+$/, 'must be printable ASCII')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  /** Sent to FxTwitter and syndication (X's web API gets the browser's, as its web app does). */
  userAgent: string;
  port: number;
  host: string;
  baseUrl: string;
  fxtwitterUrl: string;
  syndicationUrl: string;
  xApiUrl: string;
  xSessionsPath?: string;
  /** JSON file merged over the shipped X operations table (validated here, watched by the provider). */
  xOperationsPath?: string;
  /** Read current query ids (and the transaction-id inputs) from X's web bundle. */
  xDiscover: boolean;
  /** Where X's web app lives (home page, scripts). */
  xWebUrl: string;
  providers: string[];
  redisUrl?: string;
  /** Root of every Redis key (default `tm:`), so several deployments or test runs can share one Redis. */
  redisPrefix?: string;
  keysDb: string;
  adminToken?: string;
  /** Set = /healthz, /readyz and /metrics are served on this port only (same HOST), not on the service port. */
  opsPort?: number;
  /** false: no proxy; a number: trusted hops; a list: trusted proxy addresses / CIDR blocks (Fastify's trustProxy). */
  trustProxy: false | number | string[];
  cacheTtlS: number;
  /** Bound of the response cache (assembled reads, rendered bodies, serialized feeds), in bytes. */
  responseCacheBytes: number;
  cursorSecret?: string;
  upstreamTimeoutMs: number;
  /** Budget of one read across providers, retries and Retry-After waits (default 3 x the per-call timeout). */
  upstreamDeadlineMs: number;
  upstreamRetries: number;
  upstreamBackoffMs: number;
  upstreamMaxBytes: number;
  /** Consecutive failures that open a provider's circuit, and how long it stays open before one trial. */
  breakerThreshold: number;
  breakerCooldownMs: number;
  /** Longest an export may walk pages before it ends with `time_limit` (each page read has its own deadline). */
  exportTimeLimitS: number;
  logLevel: string;
}

export { ConfigError };

/** Empty strings count as unset, as most deployment tools cannot unset a variable. */
function present(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') out[key] = v;
  }
  return out;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(present(env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const shown = /TOKEN|SECRET/.test(name) ? '' : ` (got ${JSON.stringify(env[name] ?? '')})`;
    throw new ConfigError(`invalid configuration: ${name} ${issue.message}${shown}`);
  }
  const c = parsed.data;
  if (c.THREADMARK_X_OPERATIONS) {
    try {
      loadOperationsOverride(c.THREADMARK_X_OPERATIONS);
    } catch (err) {
      throw new ConfigError(
        `invalid configuration: THREADMARK_X_OPERATIONS (${c.THREADMARK_X_OPERATIONS}) ${(err as Error).message}`,
      );
    }
  }
  const baseUrl = c.THREADMARK_BASE_URL ?? `http://localhost:${c.PORT}`;
  return {
    userAgent: c.THREADMARK_USER_AGENT ?? `threadmark/${VERSION} (+${baseUrl.replace(/\/+$/, '')}/docs)`,
    port: c.PORT,
    host: c.HOST,
    baseUrl: c.THREADMARK_BASE_URL ?? `http://localhost:${c.PORT}`,
    fxtwitterUrl: c.THREADMARK_FXTWITTER_URL,
    syndicationUrl: c.THREADMARK_SYNDICATION_URL,
    xApiUrl: c.THREADMARK_X_API_URL,
    xSessionsPath: c.THREADMARK_X_SESSIONS,
    xOperationsPath: c.THREADMARK_X_OPERATIONS,
    xDiscover: c.THREADMARK_X_DISCOVER,
    xWebUrl: c.THREADMARK_X_WEB_URL,
    providers: c.THREADMARK_PROVIDERS,
    redisUrl: c.THREADMARK_REDIS_URL,
    redisPrefix: c.THREADMARK_REDIS_PREFIX,
    keysDb: c.THREADMARK_KEYS_DB,
    adminToken: c.THREADMARK_ADMIN_TOKEN,
    opsPort: c.THREADMARK_OPS_PORT,
    trustProxy: c.THREADMARK_TRUST_PROXY,
    cacheTtlS: c.THREADMARK_CACHE_TTL_S,
    responseCacheBytes: c.THREADMARK_RESPONSE_CACHE_MB * 1024 * 1024,
    cursorSecret: c.THREADMARK_CURSOR_SECRET,
    upstreamTimeoutMs: c.THREADMARK_UPSTREAM_TIMEOUT_MS,
    upstreamDeadlineMs: c.THREADMARK_UPSTREAM_DEADLINE_MS ?? DEFAULT_DEADLINE_MS,
    upstreamRetries: c.THREADMARK_UPSTREAM_RETRIES,
    upstreamBackoffMs: c.THREADMARK_UPSTREAM_BACKOFF_MS,
    upstreamMaxBytes: c.THREADMARK_UPSTREAM_MAX_BYTES,
    breakerThreshold: c.THREADMARK_BREAKER_THRESHOLD,
    breakerCooldownMs: c.THREADMARK_BREAKER_COOLDOWN_MS,
    exportTimeLimitS: c.THREADMARK_EXPORT_TIME_LIMIT_S,
    logLevel: c.LOG_LEVEL,
  };
}
