// Composition root: config → stores → providers → chain → services → HTTP server.
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';
import { buildServer, type ServerOptions } from './server.ts';
import { ProviderChain } from './providers/chain.ts';
import { buildProviders } from './providers/registry.ts';
import { CursorCodec } from './providers/cursors.ts';
import { cachedPostSource } from './app/post-source.ts';
import { cachedListSource } from './app/list-source.ts';
import { CachedReader } from './app/cached-reader.ts';
import { Guards } from './http/guards.ts';
import { createStores } from './stores/index.ts';
import type { Services } from './services.ts';
import { VERSION } from './version.ts';

export interface App {
  server: FastifyInstance;
  services: Services;
  chain: ProviderChain;
  close(): Promise<void>;
}

export interface AppOptions extends ServerOptions {
  /** Root of Redis keys, so tests sharing one Redis stay apart. */
  redisPrefix?: string;
}

export async function createApp(config: Config, opts: AppOptions = {}): Promise<App> {
  const log = pino({ level: opts.logger === false ? 'silent' : config.logLevel });
  const stores = await createStores({
    redisUrl: config.redisUrl,
    keysDb: config.keysDb,
    redisPrefix: opts.redisPrefix,
    log,
  });
  const providers = buildProviders({
    order: config.providers,
    fxtwitterUrl: config.fxtwitterUrl,
    syndicationUrl: config.syndicationUrl,
    xApiUrl: config.xApiUrl,
    xSessionsPath: config.xSessionsPath,
    timeoutMs: config.upstreamTimeoutMs,
  });
  const chain = new ProviderChain(providers);
  const reader = new CachedReader(stores.cache, stores.coalescer, config.cacheTtlS);
  const services: Services = {
    config,
    version: VERSION,
    posts: cachedPostSource(chain, reader),
    lists: cachedListSource(chain, reader),
    cursors: new CursorCodec(config.cursorSecret),
    guards: new Guards(stores.limiter, stores.keys),
    stores,
    health: () => ({ providers: chain.health() }),
  };
  const server = buildServer(services, opts);
  return {
    server,
    services,
    chain,
    async close() {
      await server.close();
      await stores.close();
    },
  };
}
