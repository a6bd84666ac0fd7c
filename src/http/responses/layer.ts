// The response layer: the store of representations (store.ts), filled by the normal path in onResponse
// (recorder.ts) and read by the hit path (fast-path.ts), the server's first onRequest hook, which answers from a
// stored representation and ends the request there. A cached read and a first read enter Fastify's lifecycle the
// same way: the hit path is a shortcut through its first hook, using the guards' own address rule, limiter and
// RateLimit fields, and Fastify's and Node's public APIs only.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../contract/services.ts';
import type { Exchanges } from '../observe/exchanges.ts';
import type { Guards } from '../guards/guards.ts';
import type { AddressRule } from '../guards/client-address.ts';
import { FastPath, type SyncCache } from './fast-path.ts';
import { Recorder } from './recorder.ts';
import { ANSWER_SLOT, answerSize } from './store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The response layer of this server, or null when answers are not stored (every request goes through). */
    responseLayer: ResponseLayer | null;
  }
}

export class ResponseLayer {
  constructor(
    readonly fastPath: FastPath,
    readonly recorder: Recorder,
  ) {}

  /** Requests answered by the fast path. */
  get served(): number {
    return this.fastPath.served;
  }

  /** Stops storing and answering (server draining). */
  disable(): void {
    this.fastPath.enabled = false;
  }
}

/**
 * The response layer of a server logging through `log`, when the hit path can answer exactly as the normal path would: in-process cache
 * and limits (synchronous) or the distributed ones (one Redis script call), and hits not logged (they log at
 * debug; a debug log wants every line). `installResponseLayer` adds its hooks.
 */
export function responseLayer(
  log: { isLevelEnabled(level: string): boolean },
  services: Services,
  guards: Guards,
  rule: AddressRule,
  on: boolean,
): ResponseLayer | undefined {
  const { stores } = services;
  const cache = stores.cache as Partial<SyncCache>;
  if (!on || log.isLevelEnabled('debug')) return undefined;
  const sync =
    typeof cache.getNow === 'function' && typeof cache.generation === 'number' && guards.chargesNow
      ? (cache as SyncCache)
      : undefined;
  if (!sync && !stores.responseCheck) return undefined;
  const store = services.responses.slot(ANSWER_SLOT, answerSize);
  const fastPath = new FastPath(store, {
    ...(sync ? { cache: sync } : { shared: stores.responseCheck }),
    guards,
    addressOf: rule.addressOf,
    observerOf: (route, method) => services.metrics.series(route, method, 200, 'hit'),
  });
  return new ResponseLayer(fastPath, new Recorder(store, () => fastPath.enabled));
}

/**
 * Adds the layer's hooks to `app`: the hit path as an onRequest hook (call this before any other onRequest hook is
 * added, so a hit runs none of them), the recorder after every finished exchange, and the switch that turns both
 * off when the server closes.
 */
export function installResponseLayer(app: FastifyInstance, layer: ResponseLayer, exchanges: Exchanges): void {
  app.addHook('onRequest', layer.fastPath.hook);
  exchanges.add((req, reply) => layer.recorder.onResponse(req, reply));
  app.addHook('preClose', (done) => {
    layer.disable();
    done();
  });
}
