// Operator routes: GET /healthz (process alive), GET /readyz (able to serve reads), GET /metrics (Prometheus).
// They sit outside the public route table, so they are not in OpenAPI, /docs or MCP, are not charged to any
// rate limit and carry no RateLimit headers: a load balancer or scraper polling them must never use up a
// client's allowance, nor be refused because one is used up.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ProviderHealth } from '../../providers/chain.ts';
import type { Stores } from '../../stores/index.ts';
import type { Metrics } from '../../ops/metrics.ts';
import { checkReadiness } from '../../ops/readiness.ts';
import { Problem } from '../../problems/problem.ts';
import { publicMethodGuard } from '../routing/conventions.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Operator route: exempt from rate limits and their headers. */
    ops?: boolean;
  }
}

export interface OpsRoutesOptions {
  stores: Stores;
  providers: () => ProviderHealth[];
  metrics: Metrics;
}

const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'];
const JSON_TYPE = 'application/json; charset=utf-8';

export const opsRoutes: FastifyPluginAsync<OpsRoutesOptions> = async (app, opts) => {
  const route = (url: string, handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    app.route({
      method: METHODS,
      url,
      config: { ops: true },
      // Same method rules as the public surface: GET/HEAD, OPTIONS preflight, 405 + Allow otherwise.
      onRequest: publicMethodGuard,
      handler: async (req, reply) => {
        // A probe's answer is about this instant; no cache may hold it.
        reply.header('cache-control', 'no-store');
        return handler(req, reply);
      },
    });

  route('/healthz', async (_req, reply) => reply.type(JSON_TYPE).send(JSON.stringify({ status: 'ok' })));

  route('/readyz', async (_req, reply) => {
    const r = await checkReadiness(opts.stores, opts.providers);
    if (!r.ready) {
      const failing = Object.entries(r.checks)
        .filter(([, c]) => !c.ok)
        .map(([name, c]) => `${name}: ${c.detail}`);
      throw new Problem('not_ready', failing.join(' '), { extensions: { checks: r.checks } });
    }
    return reply.type(JSON_TYPE).send(JSON.stringify({ status: 'ready', checks: r.checks }));
  });

  route('/metrics', async (_req, reply) => {
    const { contentType, body } = await opts.metrics.exposition();
    return reply.type(contentType).send(body);
  });
};
