// The WebSub hub of every feed (W3C WebSub): POST /api/v1/hub takes form-encoded subscribe and unsubscribe requests
// for a feed URL of this service, answers 202 and verifies the subscriber's intent before anything is stored; GET
// describes the hub. Requests are charged per client address (hub-ip).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Problem } from '../../problems/problem.ts';
import type { Limiter } from '../../stores/limits/limiter.ts';
import { HUB_REQUESTS, HUB_SOURCES_PER_ADDRESS } from '../../stores/limits/policies.ts';
import { clientKey } from '../../stores/limits/client-key.ts';
import { CallbackRefused, checkCallback } from '../../jobs/callback-guard.ts';
import { LEASE_BOUNDS_S, MAX_HUB_SECRET_BYTES, type Hub } from '../../jobs/hub.ts';
import { clientAddress } from '../guards/client-address.ts';
import { CORS_HEADERS, methodNotAllowed } from '../routing/conventions.ts';
import { canonicalTopic, hasControlChar, parseSource } from '../../contract/params/watch-source.ts';
import { HUB_PATH } from '../../contract/watch-body.ts';

const ALLOW = 'GET, HEAD, OPTIONS, POST';

export interface HubRoutesOptions {
  hub: Hub;
  limiter: Limiter;
  baseUrl: string;
  allowPrivate: boolean;
}

const bad = (detail: string) => new Problem('invalid_hub_request', detail);

function one(form: URLSearchParams, name: string): string | undefined {
  const all = form.getAll(name);
  if (all.length > 1) throw bad(`\`${name}\` is given more than once.`);
  return all[0];
}

export async function hubRoutes(app: FastifyInstance, opts: HubRoutesOptions): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) =>
    done(null, String(body)),
  );

  app.route({
    method: app.supportedMethods,
    url: HUB_PATH,
    handler: async (req: FastifyRequest, reply) => {
      if (req.method === 'OPTIONS') {
        return reply
          .code(204)
          .headers({
            allow: ALLOW,
            ...CORS_HEADERS,
            'access-control-allow-methods': ALLOW,
            'access-control-max-age': '86400',
          })
          .send();
      }
      if (req.method === 'GET' || req.method === 'HEAD') {
        return {
          hub: `${opts.baseUrl}${HUB_PATH}`,
          protocol: 'https://www.w3.org/TR/websub/',
          topics: 'Every feed URL of this service (each advertises this hub with rel="hub").',
          leaseSeconds: LEASE_BOUNDS_S,
          signature: 'X-Hub-Signature-256 (HMAC-SHA256 of the body under hub.secret)',
        };
      }
      if (req.method !== 'POST') throw methodNotAllowed(req.method, ALLOW);
      const type = String(req.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (type !== 'application/x-www-form-urlencoded')
        throw bad('The body must be application/x-www-form-urlencoded.');
      const subscriber = clientKey(clientAddress(req));
      const state = await opts.limiter.consume(HUB_REQUESTS, subscriber);
      req.rateStates = [state];
      if (!state.allowed)
        throw new Problem(
          'rate_limited',
          `An address makes at most ${HUB_REQUESTS.quota} hub requests an hour; retry in ${state.resetS} s.`,
        );
      const form = new URLSearchParams(typeof req.body === 'string' ? req.body : '');
      const mode = one(form, 'hub.mode');
      if (mode !== 'subscribe' && mode !== 'unsubscribe') throw bad('`hub.mode` must be subscribe or unsubscribe.');
      const asked = one(form, 'hub.topic');
      if (!asked) throw bad('`hub.topic` is required.');
      const topic = canonicalTopic(asked);
      if (!topic.startsWith(`${opts.baseUrl}/`))
        throw new Problem('invalid_source', `\`hub.topic\` must be a feed URL of this service (${opts.baseUrl}/…).`);
      const parsed = parseSource(topic, opts.baseUrl);
      const rawCallback = one(form, 'hub.callback');
      if (!rawCallback) throw bad('`hub.callback` is required.');
      let callback: URL;
      try {
        callback = await checkCallback(rawCallback, { allowPrivate: opts.allowPrivate, httpsOnly: false });
      } catch (err) {
        if (err instanceof CallbackRefused) throw new Problem('invalid_callback', `Callback refused: ${err.message}.`);
        throw err;
      }
      const leaseRaw = one(form, 'hub.lease_seconds');
      if (leaseRaw !== undefined && !/^[0-9]{1,10}$/.test(leaseRaw))
        throw bad('`hub.lease_seconds` must be a whole number of seconds.');
      const secret = one(form, 'hub.secret');
      if (secret !== undefined && (secret.length === 0 || Buffer.byteLength(secret) > MAX_HUB_SECRET_BYTES))
        throw bad(`\`hub.secret\` must be 1 to ${MAX_HUB_SECRET_BYTES} bytes.`);
      // A durable store may refuse to keep a NUL; a secret is text a subscriber can type.
      if (secret !== undefined && hasControlChar(secret)) throw bad('`hub.secret` must not hold control characters.');
      if (mode === 'subscribe' && !(await opts.hub.mayHold(subscriber, topic, callback.href)))
        throw new Problem(
          'too_many_subscriptions',
          `An address holds at most ${HUB_SOURCES_PER_ADDRESS} live subscriptions, each a source read in the background.`,
        );
      opts.hub.accept({
        subscriber,
        mode,
        topic,
        callback: callback.href,
        target: parsed.target,
        filter: parsed.filter,
        ...(leaseRaw !== undefined ? { leaseSeconds: Number(leaseRaw) } : {}),
        ...(secret !== undefined ? { secret } : {}),
      });
      return reply.code(202).header('cache-control', 'no-store').send();
    },
  });
}
