// Composition root: config → stores → providers → chain → services → HTTP server.
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';
import { buildOpsServer, buildServer, type ServerOptions } from './server.ts';
import { ProviderChain } from './providers/chain.ts';
import { buildProviders } from './providers/registry.ts';
import { shareCursorSecret, shareSecret } from './sources/cursor-secret.ts';
import { cachedPostSource } from './sources/post-source.ts';
import { cachedListSource } from './sources/list-source.ts';
import { cachedTranslationSource } from './sources/translation-source.ts';
import { cachedTrendSource } from './sources/trends-source.ts';
import { TRENDS_TTL_S } from './domain/trends.ts';
import { cachedTabSource } from './sources/tab-source.ts';
import { CachedReader } from './sources/cached-reader.ts';
import { Guards } from './http/guards.ts';
import { AesGcmCursorSealer } from './stores/cursor-sealer.ts';
import { MediaSigner } from './sources/media-signer.ts';
import { MediaProxy } from './sources/media-proxy.ts';
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

export interface Runtime {
  server: FastifyInstance;
  /** The operator server when THREADMARK_OPS_PORT is set (listen on it yourself, as on `server`). */
  ops?: FastifyInstance;
  services: Services;
  chain: ProviderChain;
  close(): Promise<void>;
}

export interface RuntimeOptions extends ServerOptions {
  /** Root of Redis keys, so tests sharing one Redis stay apart. */
  redisPrefix?: string;
  /** Rate-limit quotas in place of the contract's (`npm run demo`); the service itself never sets them. */
  quotas?: StoresConfig['quotas'];
}

export async function composeRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  const level = opts.logger === false ? 'silent' : config.logLevel;
  const stream = typeof opts.logger === 'object' ? opts.logger.stream : undefined;
  const log = stream ? pino({ level }, stream) : pino({ level });
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
  const proxy = config.mediaProxy
    ? new MediaProxy({
        hosts: config.mediaHosts,
        maxFileBytes: config.mediaMaxBytes,
        cacheBytes: config.mediaCacheBytes,
        timeoutMs: Math.max(config.upstreamTimeoutMs, 30_000),
        userAgent: config.userAgent,
      })
    : undefined;
  const guards = new Guards(stores.limiter, stores.keys);
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
    guards,
    stores,
    health: () => ({ providers: chain.health() }),
    providerHealth: () => chain.health(),
    responses,
    renders: responses.slot('render', renderedSize),
    feeds: responses.slot('feed', serializedFeedSize),
    xSessions,
    media: { signer, ...(proxy ? { proxy } : {}) },
    metrics: new Metrics({
      providers: () => chain.health(),
      responses: () => responses.stats(),
      limitTableBytes: () => stores.limiter.tableBytes(),
      ...(stores.mode === 'distributed' ? { sharedStoreUp: () => stores.sharedStoreUp() } : {}),
    }),
  };
  const server = buildServer(services, guards, opts);
  const ops = config.opsPort === undefined ? undefined : buildOpsServer(services, opts);
  return {
    server,
    ...(ops ? { ops } : {}),
    services,
    chain,
    async close() {
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
