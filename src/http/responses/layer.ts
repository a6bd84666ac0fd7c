// The response layer: the store of answers (store.ts), filled by the normal path in onSend (recorder.ts) and read
// by the fast path (fast-path.ts), which answers a stored answer before Fastify builds its request. A cached read
// and a first read pass the same layers in the same order: the fast path is a shortcut through this one, using the
// guards' own address rule, limiter and RateLimit fields.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../contract/services.ts';
import type { Guards } from '../guards/guards.ts';
import type { AddressRule } from '../guards/client-address.ts';
import { FastPath, type SyncCache } from './fast-path.ts';
import { putBefore } from './node-adapter.ts';
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

  /** Stops storing and answering (server draining, or no place in front of Fastify's listener). */
  disable(): void {
    this.fastPath.enabled = false;
  }

  onSend(req: FastifyRequest, reply: FastifyReply): void {
    this.recorder.onSend(req, reply);
  }
}

/**
 * The response layer of `app`, when the fast path can answer exactly as the normal path would: in-process cache
 * and limits (synchronous) or the distributed ones (one Redis script call), and hits not logged (they log at
 * debug; a debug log wants every line). `install` puts the fast path in front once the server is built.
 */
export function responseLayer(
  app: FastifyInstance,
  services: Services,
  guards: Guards,
  rule: AddressRule,
  on: boolean,
): ResponseLayer | undefined {
  const { stores } = services;
  const cache = stores.cache as Partial<SyncCache>;
  const log = app.log as { isLevelEnabled?: (level: string) => boolean };
  if (!on || log.isLevelEnabled?.('debug')) return undefined;
  const sync = typeof cache.getNow === 'function' && guards.chargesNow ? (cache as SyncCache) : undefined;
  if (!sync && !stores.responseCheck) return undefined;
  const store = services.responses.slot(ANSWER_SLOT, answerSize);
  const fastPath = new FastPath(store, {
    ...(sync ? { cache: sync } : { shared: stores.responseCheck }),
    guards,
    addressOf: rule.addressOf,
  });
  return new ResponseLayer(fastPath, new Recorder(store, services.metrics, () => fastPath.enabled));
}

/** Puts the layer's fast path in front of Fastify's request listener, and turns it off when the server closes. */
export function installResponseLayer(app: FastifyInstance, layer: ResponseLayer): void {
  app.addHook('preClose', (done) => {
    layer.disable();
    done();
  });
  if (!putBefore(app, (req, res, fastify) => layer.fastPath.serve(req, res, fastify))) layer.disable();
}
