// Signed webhooks: the keyed routes under /api/v1/watches, the documented exception to a GET-only public surface.
// POST creates a watch of a source (a path on this service) for a callback, GET lists the key's watches or shows one
// with its recent deliveries, DELETE ends one. Every other method on these paths is 405 with Allow.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sourceKeyOf } from '../../domain/watch.ts';
import { Problem } from '../../problems/problem.ts';
import type { KeyStore } from '../../stores/keys/types.ts';
import type { Limiter } from '../../stores/limits/limiter.ts';
import { WATCH_CREATES } from '../../stores/limits/policies.ts';
import type { DeliveryRecord, WatchRecord } from '../../stores/watches/types.ts';
import type { Follow } from '../../jobs/follow.ts';
import { CallbackRefused, checkCallback } from '../../jobs/callback-guard.ts';
import { bearerOf } from '../guards/guards.ts';
import { parseEveryBodyAsJson } from '../routing/json-body.ts';
import { parseSource } from '../../contract/params/watch-source.ts';
import { CORS_HEADERS, methodNotAllowed } from '../routing/conventions.ts';
import { WATCHES_PATH, WatchBody } from '../../contract/watch-body.ts';

export interface WatchRoutesOptions {
  follow: Follow;
  keys: KeyStore;
  limiter: Limiter;
  baseUrl: string;
  allowPrivate: boolean;
  watchesPerKey: number;
}

const LIST_ALLOW = 'GET, HEAD, OPTIONS, POST';
const ONE_ALLOW = 'GET, HEAD, OPTIONS, DELETE';
const RECENT = 20;

/** The watch as its key holder sees it; the signing secret only in the answer to its creation. */
function watchJson(w: WatchRecord, intervalMs: number, withSecret = false) {
  return {
    id: w.id,
    source: w.source,
    callback: w.callback,
    state: w.state,
    ...(w.disabledReason ? { disabledReason: w.disabledReason } : {}),
    intervalS: intervalMs / 1000,
    createdAt: w.createdAt,
    ...(withSecret ? { secret: w.secret } : {}),
  };
}

function deliveryJson(d: DeliveryRecord) {
  return {
    id: d.id,
    createdAt: d.createdAt,
    status: d.status,
    attempts: d.attempts,
    posts: d.postIds,
    ...(d.lastAttemptAt ? { lastAttemptAt: d.lastAttemptAt } : {}),
    ...(d.lastStatus !== undefined ? { lastStatus: d.lastStatus } : {}),
    ...(d.lastError ? { lastError: d.lastError } : {}),
  };
}

function methodGuard(allow: string) {
  return (req: FastifyRequest, reply: FastifyReply, methods: string[]): boolean => {
    if (req.method === 'OPTIONS') {
      void reply
        .code(204)
        .headers({
          allow,
          ...CORS_HEADERS,
          'access-control-allow-methods': allow,
          'access-control-allow-headers': 'Authorization, Accept, Content-Type',
          'access-control-max-age': '86400',
        })
        .send();
      return false;
    }
    if (methods.includes(req.method)) return true;
    throw methodNotAllowed(req.method, allow);
  };
}

export async function watchRoutes(app: FastifyInstance, opts: WatchRoutesOptions): Promise<void> {
  const { follow, keys } = opts;
  parseEveryBodyAsJson(app);

  /** The key's id; 401 without a key or with one that is not valid. */
  async function keyId(req: FastifyRequest): Promise<string> {
    const bearer = bearerOf(req);
    if (!bearer) throw new Problem('key_required', 'Watches belong to an API key: send `Authorization: Bearer <key>`.');
    const v = await keys.verify(bearer);
    if (v.status === 'unverified')
      throw new Problem('key_store_unavailable', 'The key store did not answer; retry shortly.', {
        headers: { 'Retry-After': '5' },
      });
    if (v.status !== 'valid') throw new Problem('invalid_key', 'The API key is unknown or disabled.');
    return v.record.id;
  }

  async function ownWatch(req: FastifyRequest): Promise<WatchRecord> {
    const owner = await keyId(req);
    const id = (req.params as { id?: string }).id ?? '';
    const w = /^wh_[0-9a-f]{32}$/.test(id) ? await follow.store.getWatch(id) : undefined;
    // Another key's watch is not found either: ids reveal nothing about other keys.
    if (!w || w.keyId !== owner) throw new Problem('not_found', `No watch with id ${id.slice(0, 80)} for this key.`);
    return w;
  }

  const intervalOf = (w: WatchRecord) => follow.settings.intervalsMs[w.target.kind];
  const listGuard = methodGuard(LIST_ALLOW);
  const oneGuard = methodGuard(ONE_ALLOW);

  app.route({
    method: app.supportedMethods,
    url: WATCHES_PATH,
    handler: async (req, reply) => {
      if (!listGuard(req, reply, ['GET', 'HEAD', 'POST'])) return reply;
      reply.header('cache-control', 'no-store');
      const owner = await keyId(req);
      if (req.method !== 'POST') {
        const mine = await follow.store.listWatches(owner);
        return { watches: mine.map((w) => watchJson(w, intervalOf(w))), limit: opts.watchesPerKey };
      }
      const state = await opts.limiter.consume(WATCH_CREATES, owner);
      req.rateStates = [state];
      if (!state.allowed)
        throw new Problem(
          'rate_limited',
          `A key creates at most ${WATCH_CREATES.quota} watches an hour; retry in ${state.resetS} s.`,
        );
      const body = WatchBody.safeParse(req.body);
      if (!body.success) {
        const detail = body.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
        throw new Problem('invalid_body', `Expected {"source": string, "callback": string}. ${detail}`);
      }
      const parsed = parseSource(body.data.source, opts.baseUrl);
      let callback: URL;
      try {
        callback = await checkCallback(body.data.callback, { allowPrivate: opts.allowPrivate, httpsOnly: true });
      } catch (err) {
        if (err instanceof CallbackRefused) throw new Problem('invalid_callback', `Callback refused: ${err.message}.`);
        throw err;
      }
      const mine = await follow.store.listWatches(owner);
      if (mine.length >= opts.watchesPerKey)
        throw new Problem('too_many_watches', `This key has ${mine.length} watches, the most a key may have.`);
      const watch: WatchRecord = {
        id: `wh_${randomUUID().replaceAll('-', '')}`,
        keyId: owner,
        source: parsed.source,
        sourceKey: sourceKeyOf(parsed.target),
        target: parsed.target,
        filter: parsed.filter,
        callback: callback.href,
        secret: follow.newSecret(),
        state: 'active',
        createdAt: new Date().toISOString(),
      };
      await follow.store.addWatch(watch);
      await follow.follow(watch.sourceKey, watch.target.kind);
      reply.code(201).header('location', `${opts.baseUrl}${WATCHES_PATH}/${watch.id}`);
      return watchJson(watch, intervalOf(watch), true);
    },
  });

  app.route({
    method: app.supportedMethods,
    url: `${WATCHES_PATH}/:id`,
    handler: async (req, reply) => {
      if (!oneGuard(req, reply, ['GET', 'HEAD', 'DELETE'])) return reply;
      reply.header('cache-control', 'no-store');
      const w = await ownWatch(req);
      if (req.method === 'DELETE') {
        await follow.store.deleteWatch(w.id);
        return reply.code(204).send();
      }
      const recent = await follow.store.recentDeliveries(w.id, RECENT);
      return { ...watchJson(w, intervalOf(w)), deliveries: recent.map(deliveryJson) };
    },
  });
}
