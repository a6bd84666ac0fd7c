// The configuration contract of architecture.md: every variable validated once at start-up.
import { isIP } from 'node:net';
import { z } from 'zod';
import { VERSION } from './version.ts';
import { ConfigError } from './config-error.ts';
import { DEFAULT_DEADLINE_MS, DEFAULT_UPSTREAM_TIMEOUT_MS } from './providers/deadline.ts';
import { loadOperationsOverride } from './providers/x/operation-table.ts';
import { parseMediaHosts, type MediaHostMap } from './media/hosts.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((u) => u.replace(/\/+$/, ''));

/** Where documentation lives: a site (http, https) or a folder of the Markdown guides (file). */
const docsUrl = z
  .url({ protocol: /^(https?|file)$/, error: 'must be an http(s) or file URL' })
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

/** `host:port,host:port,…`: seed nodes of a Redis Cluster or the Sentinels of a monitored master. */
const hostPorts = z.string().transform((v, ctx): Array<{ host: string; port: number }> => {
  const out: Array<{ host: string; port: number }> = [];
  for (const item of v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$/.exec(item);
    const port = Number(m?.[2]);
    if (!m || port < 1 || port > 65535) {
      ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of host:port' });
      return z.NEVER;
    }
    out.push({ host: m[1]!.replace(/^\[|\]$/g, ''), port });
  }
  if (out.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'must name at least one host:port' });
    return z.NEVER;
  }
  return out;
});

const SOURCE_KINDS = ['profile', 'search', 'thread', 'list'] as const;
type IntervalKind = (typeof SOURCE_KINDS)[number];
const DEFAULT_INTERVALS_MS: Record<IntervalKind, number> = {
  profile: 60_000,
  search: 120_000,
  thread: 60_000,
  list: 120_000,
};

/** `profile=60000,search=120000,…`: kinds not named keep their default; 50 ms to a day each. */
const watchIntervals = z
  .string()
  .optional()
  .transform((v, ctx): Record<IntervalKind, number> => {
    const out = { ...DEFAULT_INTERVALS_MS };
    for (const part of (v ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)) {
      const [kind, ms] = part.split('=');
      const n = Number(ms);
      if (!SOURCE_KINDS.includes(kind as IntervalKind) || !/^[0-9]+$/.test(ms ?? '') || n < 50 || n > 86_400_000) {
        ctx.addIssue({
          code: 'custom',
          message: `must be kind=milliseconds pairs separated by commas (kinds: ${SOURCE_KINDS.join(', ')}; 50 to 86400000)`,
        });
        return z.NEVER;
      }
      out[kind as IntervalKind] = n;
    }
    return out;
  });

export const PROVIDER_NAMES = ['fxtwitter', 'syndication', 'x'] as const;

/** One setting: the environment variable it is read from and the schema of its value. */
function setting<S extends z.ZodType>(variable: string, schema: S): { variable: string; schema: S } {
  return { variable, schema };
}

/**
 * Every setting once: the configuration field, the environment variable it is read from, and its schema. `Config` is
 * what these parse to, plus the two values derived from others (baseUrl, userAgent).
 */
const SETTINGS = {
  port: setting('PORT', z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(8080)),
  host: setting('HOST', z.string().min(1).default('0.0.0.0')),
  /** Public base for links, `type` URIs, oEmbed and discovery; default `http://localhost:$PORT`. */
  baseUrl: setting('THREADMARK_BASE_URL', httpUrl.optional()),
  /**
   * Where the CLI and stdio MCP run in-process link problem documents (`{docs}/reliability#<code>`); default
   * THREADMARK_BASE_URL's /docs when that is set, else the docs/ folder the package ships. The service's own
   * problems always link its /docs.
   */
  docsUrl: setting('THREADMARK_DOCS_URL', docsUrl.optional()),
  fxtwitterUrl: setting('THREADMARK_FXTWITTER_URL', httpUrl.default('https://api.fxtwitter.com')),
  syndicationUrl: setting('THREADMARK_SYNDICATION_URL', httpUrl.default('https://cdn.syndication.twimg.com')),
  xApiUrl: setting('THREADMARK_X_API_URL', httpUrl.default('https://x.com/i/api')),
  xSessionsPath: setting('THREADMARK_X_SESSIONS', z.string().min(1).optional()),
  /** JSON file merged over the shipped X operations table (validated here, watched by the provider). */
  xOperationsPath: setting('THREADMARK_X_OPERATIONS', z.string().min(1).optional()),
  /** Read current query ids (and the transaction-id inputs) from X's web bundle. */
  xDiscover: setting('THREADMARK_X_DISCOVER', bool.default(false)),
  /** Where X's web app lives (home page, scripts). */
  xWebUrl: setting('THREADMARK_X_WEB_URL', httpUrl.default('https://x.com')),
  providers: setting(
    'THREADMARK_PROVIDERS',
    z
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
  ),
  redisUrl: setting(
    'THREADMARK_REDIS_URL',
    z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  ),
  /** Seed nodes of a Redis Cluster (in place of THREADMARK_REDIS_URL); the client learns the others from them. */
  redisCluster: setting('THREADMARK_REDIS_CLUSTER', hostPorts.optional()),
  /** Sentinels watching the master named by THREADMARK_REDIS_SENTINEL_NAME (in place of THREADMARK_REDIS_URL). */
  redisSentinels: setting('THREADMARK_REDIS_SENTINELS', hostPorts.optional()),
  redisSentinelName: setting(
    'THREADMARK_REDIS_SENTINEL_NAME',
    z
      .string()
      .min(1)
      .max(200)
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .optional(),
  ),
  /** PostgreSQL for what must survive a Redis flush: API keys and the X session registry. */
  databaseUrl: setting(
    'THREADMARK_DATABASE_URL',
    z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  ),
  /** Schema of threadmark's tables (default `public`), so several deployments or test runs can share a database. */
  databaseSchema: setting(
    'THREADMARK_DATABASE_SCHEMA',
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case identifier (letters, digits, _; at most 63)')
      .optional(),
  ),
  /** Root of every Redis key (default `tm:`), so several deployments or test runs can share one Redis. */
  redisPrefix: setting(
    'THREADMARK_REDIS_PREFIX',
    z
      .string()
      .min(1)
      .max(100)
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .optional(),
  ),
  keysDb: setting('THREADMARK_KEYS_DB', z.string().min(1).default('./data/keys.db')),
  adminToken: setting('THREADMARK_ADMIN_TOKEN', z.string().min(16, 'must be at least 16 characters').optional()),
  /** Set = /healthz, /readyz and /metrics are served on this port only (same HOST), not on the service port. */
  opsPort: setting(
    'THREADMARK_OPS_PORT',
    z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).optional(),
  ),
  /** false: no proxy; a number: trusted hops; a list: trusted proxy addresses / CIDR blocks (Fastify's trustProxy). */
  trustProxy: setting('THREADMARK_TRUST_PROXY', trustProxy.default(false)),
  cacheTtlS: setting(
    'THREADMARK_CACHE_TTL_S',
    z.coerce
      .number({ error: 'must be a number of seconds' })
      .int()
      .min(0)
      .max(86400 * 7)
      .default(300),
  ),
  /** Bound of the response cache (assembled reads, rendered bodies, serialized feeds), set in megabytes. */
  responseCacheBytes: setting(
    'THREADMARK_RESPONSE_CACHE_MB',
    z.coerce
      .number({ error: 'must be a number of megabytes' })
      .int()
      .min(1)
      .max(4096)
      .default(40)
      .transform((mb) => mb * 1024 * 1024),
  ),
  cursorSecret: setting('THREADMARK_CURSOR_SECRET', z.string().min(16, 'must be at least 16 characters').optional()),
  upstreamTimeoutMs: setting(
    'THREADMARK_UPSTREAM_TIMEOUT_MS',
    z.coerce
      .number({ error: 'must be a number of milliseconds' })
      .int()
      .min(100)
      .max(60000)
      .default(DEFAULT_UPSTREAM_TIMEOUT_MS),
  ),
  /** Budget of one read across providers, retries and Retry-After waits (default 3 x the per-call timeout). */
  upstreamDeadlineMs: setting(
    'THREADMARK_UPSTREAM_DEADLINE_MS',
    z.coerce
      .number({ error: 'must be a number of milliseconds' })
      .int()
      .min(100)
      .max(300000)
      .default(DEFAULT_DEADLINE_MS),
  ),
  upstreamRetries: setting(
    'THREADMARK_UPSTREAM_RETRIES',
    z.coerce.number({ error: 'must be a whole number' }).int().min(0).max(5).default(2),
  ),
  upstreamBackoffMs: setting(
    'THREADMARK_UPSTREAM_BACKOFF_MS',
    z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(1).max(10000).default(250),
  ),
  upstreamMaxBytes: setting(
    'THREADMARK_UPSTREAM_MAX_BYTES',
    z.coerce
      .number({ error: 'must be a number of bytes' })
      .int()
      .min(1024)
      .max(100 * 1024 * 1024)
      .default(5 * 1024 * 1024),
  ),
  /** Consecutive failures that open a provider's circuit, and how long it stays open before one trial. */
  breakerThreshold: setting(
    'THREADMARK_BREAKER_THRESHOLD',
    z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(1000).default(5),
  ),
  breakerCooldownMs: setting(
    'THREADMARK_BREAKER_COOLDOWN_MS',
    z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(10).max(3_600_000).default(30_000),
  ),
  /** Longest an export may walk pages before it ends with `time_limit` (each page read has its own deadline). */
  exportTimeLimitS: setting(
    'THREADMARK_EXPORT_TIME_LIMIT_S',
    z.coerce.number({ error: 'must be a number of seconds' }).int().min(1).max(3600).default(300),
  ),
  /**
   * Sent to FxTwitter and syndication (X's web API gets the browser's, as its web app does); the default names the
   * service and its /docs.
   */
  userAgent: setting(
    'THREADMARK_USER_AGENT',
    z
      .string()
      .min(1)
      .max(300)
      .regex(/^[\x20-\x7e]+$/, 'must be printable ASCII')
      .optional(),
  ),
  /**
   * Where X's media hosts are reached (`pbs.twimg.com=https://mirror.example,…`); only those hosts can be mapped,
   * so media are never fetched from anywhere else.
   */
  mediaHosts: setting(
    'THREADMARK_MEDIA_HOSTS',
    z
      .string()
      .default('')
      .transform((v, ctx): MediaHostMap => {
        const hosts = parseMediaHosts(v);
        if (typeof hosts !== 'string') return hosts;
        ctx.addIssue({ code: 'custom', message: hosts });
        return z.NEVER;
      }),
  ),
  /** Serve X media at /media/… under signed addresses, and point feeds and pages there. */
  mediaProxy: setting('THREADMARK_MEDIA_PROXY', bool.default(false)),
  /** Bytes of media the proxy keeps in memory, set in megabytes. */
  mediaCacheBytes: setting(
    'THREADMARK_MEDIA_CACHE_MB',
    z.coerce
      .number({ error: 'must be a number of megabytes' })
      .int()
      .min(1)
      .max(65536)
      .default(256)
      .transform((mb) => mb * 1024 * 1024),
  ),
  /**
   * Bytes of media on their way to readers at once (files read whole for the cache, a window per streamed file), set
   * in megabytes; past it /media/ answers 503 media_proxy_busy.
   */
  mediaInFlightBytes: setting(
    'THREADMARK_MEDIA_INFLIGHT_MB',
    z.coerce
      .number({ error: 'must be a number of megabytes' })
      .int()
      .min(1)
      .max(65536)
      .default(32)
      .transform((mb) => mb * 1024 * 1024),
  ),
  /** Largest file the proxy serves, set in megabytes. */
  mediaMaxBytes: setting(
    'THREADMARK_MEDIA_MAX_MB',
    z.coerce
      .number({ error: 'must be a number of megabytes' })
      .int()
      .min(1)
      .max(1024)
      .default(64)
      .transform((mb) => mb * 1024 * 1024),
  ),
  /** Least time a signed media address stays valid (it may stay valid up to twice as long). */
  mediaUrlTtlS: setting(
    'THREADMARK_MEDIA_URL_TTL_S',
    z.coerce
      .number({ error: 'must be a number of seconds' })
      .int()
      .min(60)
      .max(30 * 86400)
      .default(7 * 86400),
  ),
  /** How often a watched source is read, per kind of source (see docs/feeds.md, Push). */
  watchIntervalsMs: setting('THREADMARK_WATCH_INTERVALS_MS', watchIntervals),
  /** Tests only: loopback/private addresses and plain http allowed for webhook and WebSub callbacks. */
  webhookAllowPrivate: setting('THREADMARK_WEBHOOK_ALLOW_PRIVATE', bool.default(false)),
  webhookAttempts: setting(
    'THREADMARK_WEBHOOK_ATTEMPTS',
    z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(30).default(8),
  ),
  webhookBackoffMs: setting(
    'THREADMARK_WEBHOOK_BACKOFF_MS',
    z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(1).max(3_600_000).default(10_000),
  ),
  webhookTimeoutMs: setting(
    'THREADMARK_WEBHOOK_TIMEOUT_MS',
    z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(100).max(60_000).default(5000),
  ),
  watchesPerKey: setting(
    'THREADMARK_WATCHES_PER_KEY',
    z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(100_000).default(100),
  ),
  logLevel: setting(
    'LOG_LEVEL',
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
} as const;

type Settings = typeof SETTINGS;
type Parsed = z.output<z.ZodObject<{ [K in keyof Settings]: Settings[K]['schema'] }>>;

/** The environment as the settings read it: keyed by variable, so an issue names the variable to fix. */
const schema = z.object(Object.fromEntries(Object.values(SETTINGS).map((s) => [s.variable, s.schema])));

export type Config = Omit<Parsed, 'baseUrl' | 'userAgent'> & { baseUrl: string; userAgent: string };

export { ConfigError };

/** Settings whose whole value is a credential: never echoed. */
const SECRET_SETTING = /TOKEN|SECRET/;
/** Settings holding a URL, which may carry a password in its user-info or query. */
const URL_SETTING = /_URL$/;
const SECRET_QUERY_PARAM = /^(pass(word)?|secret|token|auth|key)$/i;

/**
 * A URL-like value with its user-info and credential-looking query values replaced by `***`. Works on text,
 * not on a parsed URL, because the values that reach an error message are the ones that failed to parse;
 * everything up to the last `@` counts as user-info, since a malformed password may itself hold `@`, `/` or `#`.
 */
export function maskCredentials(value: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? '';
  let rest = value.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  if (at >= 0) rest = `***@${rest.slice(at + 1)}`;
  const q = rest.indexOf('?');
  if (q >= 0) {
    const params = rest
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        return eq >= 0 && SECRET_QUERY_PARAM.test(pair.slice(0, eq)) ? `${pair.slice(0, eq)}=***` : pair;
      });
    rest = `${rest.slice(0, q)}?${params.join('&')}`;
  }
  return scheme + rest;
}

function shownValue(name: string, value: string): string {
  return URL_SETTING.test(name) ? maskCredentials(value) : value;
}

/** Empty strings count as unset, as most deployment tools cannot unset a variable. */
function present(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') out[key] = v;
  }
  return out;
}

/** One way to reach Redis at most, and a Sentinel setup names its master. */
function checkRedisTarget(c: Parsed): void {
  const set = [
    c.redisUrl && 'THREADMARK_REDIS_URL',
    c.redisCluster && 'THREADMARK_REDIS_CLUSTER',
    c.redisSentinels && 'THREADMARK_REDIS_SENTINELS',
  ].filter(Boolean);
  if (set.length > 1) {
    throw new ConfigError(
      `invalid configuration: ${set.join(' and ')} are mutually exclusive (set one: a single Redis, a Redis Cluster or Sentinels)`,
    );
  }
  if (c.redisSentinels && !c.redisSentinelName) {
    throw new ConfigError(
      'invalid configuration: THREADMARK_REDIS_SENTINELS needs THREADMARK_REDIS_SENTINEL_NAME (the master name the Sentinels monitor)',
    );
  }
  if (c.redisSentinelName && !c.redisSentinels) {
    throw new ConfigError(
      'invalid configuration: THREADMARK_REDIS_SENTINEL_NAME is set without THREADMARK_REDIS_SENTINELS',
    );
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(present(env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const shown = SECRET_SETTING.test(name) ? '' : ` (got ${JSON.stringify(shownValue(name, env[name] ?? ''))})`;
    throw new ConfigError(`invalid configuration: ${name} ${issue.message}${shown}`);
  }
  const data = parsed.data as Record<string, unknown>;
  const c = Object.fromEntries(
    Object.entries(SETTINGS).map(([field, { variable }]) => [field, data[variable]]),
  ) as Parsed;
  if (c.xOperationsPath) {
    try {
      loadOperationsOverride(c.xOperationsPath);
    } catch (err) {
      throw new ConfigError(
        `invalid configuration: THREADMARK_X_OPERATIONS (${c.xOperationsPath}) ${(err as Error).message}`,
      );
    }
  }
  checkRedisTarget(c);
  const baseUrl = c.baseUrl ?? `http://localhost:${c.port}`;
  return { ...c, baseUrl, userAgent: c.userAgent ?? `threadmark/${VERSION} (+${baseUrl}/docs)` };
}
