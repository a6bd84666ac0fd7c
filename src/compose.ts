// Composition root: config → stores → providers → chain → services → HTTP server.
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';
import { buildOpsServer, buildServer, type ServerOptions } from './server.ts';
import { serviceLogFor } from './http/observe/service-log.ts';
import { ProviderChain } from './providers/chain.ts';
import { buildProviders } from './providers/registry.ts';
import { shareCursorSecret, shareSecret } from './secrets/cursor-secret.ts';
import { cachedPostSource } from './sources/post-source.ts';
import { cachedListSource } from './sources/list-source.ts';
import { cachedTranslationSource } from './sources/translation-source.ts';
import { cachedTrendSource } from './sources/trends-source.ts';
import { TRENDS_TTL_S } from './domain/trends.ts';
import { cachedTabSource } from './sources/tab-source.ts';
import { CachedReader } from './sources/cached-reader.ts';
import { Guards } from './http/guards/guards.ts';
import { AesGcmCursorSealer } from './secrets/cursor-sealer.ts';
import { MediaSigner } from './media/signer.ts';
import { MediaProxy } from './media/proxy.ts';
import type { ChargeMedia } from './media/payer.ts';
import { createStores, type StoresConfig } from './stores/index.ts';
import { redisTargetOf } from './stores/redis/target.ts';
import { Metrics } from './ops/metrics.ts';
import { XProvider } from './providers/x/provider.ts';
import { SessionAdmin } from './providers/x/session-admin.ts';
import type { Services } from './contract/services.ts';
import { VERSION } from './version.ts';
import { ResponseCache } from './stores/cache/responses.ts';
import { assembledSize } from './domain/read-post.ts';
import { renderedSize } from './http/present/memo.ts';
import { serializedFeedSize } from './http/present/feeds.ts';
import { createPush, type Push } from './jobs/index.ts';
import { followerPayers } from './jobs/payers.ts';
import { DEFAULT_REDIS_PREFIX } from './stores/redis/connect.ts';
import { HUB_PATH } from './contract/watch-body.ts';

/** Wait between two attempts to join the push schedule while the store does not answer. */
const PUSH_RETRY_MS = 5000;
/** Largest push body (a webhook batch or a WebSub feed document). */
const MAX_PUSH_BYTES = 512 * 1024;

export interface Runtime {
  server: FastifyInstance;
  /** The service's root logger (the server's request loggers are its children). */
  log: pino.Logger;
  /** The operator server when THREADMARK_OPS_PORT is set (listen on it yourself, as on `server`). */
  ops?: FastifyInstance;
  services: Services;
  chain: ProviderChain;
  /** Watches, the WebSub hub and their scheduled reads and deliveries. */
  push: Push;
  close(): Promise<void>;
}

export interface RuntimeOptions extends ServerOptions {
  /** Root of Redis keys, so tests sharing one Redis stay apart. */
  redisPrefix?: string;
  /**
   * false = the watched sources are not read and nothing is delivered from this process (the CLI's in-process mode,
   * which lives for one command). Default: on.
   */
  push?: boolean;
  /** Rate-limit quotas in place of the contract's (`npm run demo`); the service itself never sets them. */
  quotas?: StoresConfig['quotas'];
}

export async function composeRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  const log = serviceLogFor(opts.logger, config.logLevel);
  const stores = await createStores({
    redis: redisTargetOf(config),
    databaseUrl: config.databaseUrl,
    databaseSchema: config.databaseSchema,
    keysDb: config.keysDb,
    redisPrefix: opts.redisPrefix ?? config.redisPrefix,
    log,
    quotas: opts.quotas,
  });
  const providers = buildProviders({
    order: config.providers,
    fxtwitterUrl: config.fxtwitterUrl,
    syndicationUrl: config.syndicationUrl,
    xApiUrl: config.xApiUrl,
    xSessionsPath: config.xSessionsPath,
    xOperationsPath: config.xOperationsPath,
    xDiscover: config.xDiscover,
    xWebUrl: config.xWebUrl,
    log,
    timeoutMs: config.upstreamTimeoutMs,
    policy: {
      retries: config.upstreamRetries,
      backoffMs: config.upstreamBackoffMs,
      maxBytes: config.upstreamMaxBytes,
      userAgent: config.userAgent,
    },
  });
  const chain = new ProviderChain(providers, {
    deadlineMs: config.upstreamDeadlineMs,
    circuit: { threshold: config.breakerThreshold, cooldownMs: config.breakerCooldownMs },
  });
  const x = providers.find((p): p is XProvider => p instanceof XProvider);
  const xSessions = x ? new SessionAdmin(x.pool, stores.sharedHash?.('x-sessions'), log) : undefined;
  await xSessions?.start();
  const reader = new CachedReader(stores.cache, stores.coalescer, config.cacheTtlS);
  const responses = new ResponseCache(config.responseCacheBytes);
  const cursors = new AesGcmCursorSealer(config.cursorSecret);
  const stopSharingCursors = config.cursorSecret ? () => {} : await shareCursorSecret(stores, cursors);
  const signer = new MediaSigner(config.mediaUrlTtlS);
  const stopSharingMediaKey = await shareSecret(stores, 'media-secret', signer);
  const guards = new Guards(stores.limiter, stores.keys);
  // Media fetches are charged where every other upstream call is, and counted with them.
  const chargeMedia: ChargeMedia = async (payer) => {
    await chain.chargeFor(payer, 'media')();
  };
  const proxy = config.mediaProxy
    ? new MediaProxy({
        hosts: config.mediaHosts,
        maxFileBytes: config.mediaMaxBytes,
        cacheBytes: config.mediaCacheBytes,
        inFlightBytes: config.mediaInFlightBytes,
        timeoutMs: Math.max(config.upstreamTimeoutMs, 30_000),
        userAgent: config.userAgent,
        charge: chargeMedia,
      })
    : undefined;
  const services: Services = {
    config,
    version: VERSION,
    posts: cachedPostSource(chain, reader, responses.slot('post-read', assembledSize)),
    lists: cachedListSource(chain, reader),
    translations: cachedTranslationSource(chain, reader),
    trends: cachedTrendSource(
      chain,
      new CachedReader(stores.cache, stores.coalescer, Math.min(TRENDS_TTL_S, config.cacheTtlS)),
    ),
    tabs: cachedTabSource(chain, reader),
    cursors,
    stores,
    providerHealth: () => chain.health(),
    responses,
    renders: responses.slot('render', renderedSize),
    feeds: responses.slot('feed', serializedFeedSize),
    xSessions,
    media: { signer, charge: chargeMedia, ...(proxy ? { proxy } : {}) },
    metrics: new Metrics({
      providers: () => chain.health(),
      callsByPayer: () => chain.calls(),
      responses: () => responses.stats(),
      limitTableBytes: () => stores.limiter.tableBytes(),
      ...(stores.mode === 'distributed' ? { sharedStoreUp: () => stores.sharedStoreUp() } : {}),
    }),
  };
  const redisTarget = redisTargetOf(config);
  const push = createPush({
    store: stores.watches,
    sources: { lists: services.lists, posts: services.posts },
    payers: followerPayers(stores.limiter, stores.keys),
    settings: {
      intervalsMs: config.watchIntervalsMs,
      attempts: config.webhookAttempts,
      backoffMs: config.webhookBackoffMs,
      maxBodyBytes: MAX_PUSH_BYTES,
      hubUrl: `${config.baseUrl}${HUB_PATH}`,
      push: {
        timeoutMs: config.webhookTimeoutMs,
        allowPrivate: config.webhookAllowPrivate,
        userAgent: config.userAgent,
      },
    },
    log: {
      info: (o, m) => log.info(o, m),
      warn: (o, m) => log.warn(o, m),
      error: (o, m) => log.error(o, m),
    },
    // A topic's content is its feed as this service serves it, rendered by the server itself.
    renderTopic: async (topic) => {
      const res = await server.inject({ method: 'GET', url: topic.slice(config.baseUrl.length) });
      if (res.statusCode !== 200) return undefined;
      return { contentType: String(res.headers['content-type'] ?? 'application/xml'), body: res.body };
    },
    ...(redisTarget
      ? { redis: { target: redisTarget, prefix: opts.redisPrefix ?? config.redisPrefix ?? DEFAULT_REDIS_PREFIX } }
      : {}),
  });
  const server = buildServer(services, guards, { ...opts, log, ...(opts.push === false ? {} : { push }) });
  // Started in the background: with Redis unreachable the service still starts (degraded), and the shared schedule
  // is joined once Redis answers.
  const pushStop = new AbortController();
  if (opts.push !== false) void startPush(push, log, pushStop.signal);
  const ops = config.opsPort === undefined ? undefined : buildOpsServer(services, opts);
  return {
    server,
    log,
    ...(ops ? { ops } : {}),
    services,
    chain,
    push,
    async close() {
      pushStop.abort();
      await push.close();
      stopSharingCursors();
      stopSharingMediaKey();
      xSessions?.stop();
      for (const p of providers) p.close?.();
      await server.close();
      await ops?.close();
      await stores.close();
    },
  };
}

/** Joins the schedule, retrying while the store does not answer (its outage is already logged by the stores). */
async function startPush(push: Push, log: pino.Logger, stop: AbortSignal): Promise<void> {
  while (!stop.aborted) {
    try {
      await push.start();
      return;
    } catch (err) {
      log.debug({ err: (err as Error).message }, 'push not started yet; retrying');
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, PUSH_RETRY_MS);
        t.unref();
        stop.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
      });
    }
  }
}
