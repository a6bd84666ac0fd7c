// Builds the Fastify server: shared conventions, the problem mapper and every declared route.
import { METHODS } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Services } from './contract/services.ts';
import { CORS_HEADERS, EXPOSED_HEADERS, isPrivatePath } from './http/routing/conventions.ts';
import { frameworkErrorHandler, notFoundHandler, sendProblem } from './http/failures/problem-reply.ts';
import { registerRoutes } from './http/routing/register.ts';
import { withConditionalRequests } from './http/negotiation/conditional.ts';
import { QuietIncoming, accessLine } from './http/observe/access-log.ts';
import { deprecationHook, parameterDeprecationHook } from './http/negotiation/deprecation.ts';
import { PUBLIC_ROUTES } from './route-table.ts';
import { adminRoutes } from './http/routes/admin.ts';
import { registerMcp } from './http/routes/mcp.ts';
import { opsRoutes } from './http/routes/ops.ts';
import { countClientErrors, countExchanges } from './http/observe/observe.ts';
import { Exchanges } from './http/observe/exchanges.ts';
import { serviceLogFor } from './http/observe/service-log.ts';
import { drainOnClose } from './http/connections/drain.ts';
import { serverTimeouts, timeoutOptions, type ServerTimeouts } from './http/connections/timeouts.ts';
import { clientErrorHandler, connectHandler, trackResponses } from './http/connections/client-error.ts';
import { installResponseLayer, responseLayer } from './http/responses/layer.ts';
import { addressRule } from './http/guards/client-address.ts';
import { nextRequestId } from './http/observe/request-id.ts';
import type { Guards } from './http/guards/guards.ts';
import { untrustedForwardingWatch } from './http/guards/untrusted-forwarding.ts';
import { canonicalLinkHook, prefixRefusalHook, prefixRewriter } from './http/routing/prefix-read.ts';
import { requestLoggers } from './http/observe/request-logger.ts';
import type { Logger } from 'pino';
import { watchRoutes } from './http/routes/watches.ts';
import { hubRoutes } from './http/routes/hub.ts';
import type { Push } from './jobs/index.ts';
import { routeOtherMethods } from './http/routing/method-fallback.ts';

/** Longest path segment the router takes as a parameter (a longer one is 400 bad_request). */
const MAX_PARAM_LENGTH = 1000;

export interface ServerOptions {
  /** false = silent; `stream` sends the log lines elsewhere than stdout (threadmark mcp keeps stdout for protocol). */
  logger?: boolean | { level: string; stream?: NodeJS.WritableStream };
  /** The root logger to log through (composeRuntime's); made from `logger` when absent. */
  log?: Logger;
  /** Socket timeouts; defaults in http/connections/timeouts.ts (tests shorten them). */
  timeouts?: Partial<ServerTimeouts>;
  /**
   * false = no fast path (and no stored answers): every request goes through Fastify (tests compare the two).
   * Default: on when it can be.
   */
  fastPath?: boolean;
  /** Watches and the WebSub hub: their routes are mounted when given. */
  push?: Push | boolean;
}

/** `guards` run their hooks and headers here and are handed to each handler bound to its request. */
export function buildServer(services: Services, guards: Guards, opts: ServerOptions = {}): FastifyInstance {
  const { config } = services;
  const base = config.baseUrl;
  // One address rule for Fastify's trusted hops, the guards and the response layer's fast path.
  const rule = addressRule(config.trustProxy);
  const timeouts = serverTimeouts(opts.timeouts);
  const log = opts.log ?? serviceLogFor(opts.logger, config.logLevel);
  const app = Fastify({
    // No logger of Fastify's own: with one, Fastify follows every response with listeners, cache hits included.
    // Requests log through children of the service's root logger (http/observe/service-log.ts), each made when it
    // first logs (a cache hit at the default level never does), and every exchange but a hit ends in one access
    // line (http/observe/exchanges.ts).
    logger: false,
    childLoggerFactory: requestLoggers(log),
    logController: new QuietIncoming(),
    trustProxy: rule.trustProxy,
    genReqId: nextRequestId,
    requestIdHeader: false,
    // Long path segments must reach validation (→ invalid_handle) rather than silently miss the route.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // `/https://x.com/…` and `/x.com/…` are routed as the permalink the pasted link names (http/routing/prefix-read.ts).
    rewriteUrl: prefixRewriter(reservedSegments()),
    bodyLimit: 1024 * 1024,
    ...timeoutOptions(timeouts),
    clientErrorHandler: clientErrorHandler(base),
    frameworkErrors: frameworkErrorHandler(base),
  }); // Every method Node's parser accepts reaches the router, so a known route answers 405 for all of them.
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }

  app.decorate('addressRule', rule);
  app.server.on('connect', connectHandler(base));
  trackResponses(app.server);

  // The response layer (http/responses/) first: its hit path is the first onRequest hook, so a stored answer runs
  // no other; its recorder stores what goes out once every onSend hook (RateLimit fields, codings) has run.
  const exchanges = new Exchanges();
  const responses = responseLayer(log, services, guards, rule, opts.fastPath !== false);
  app.decorate('responseLayer', responses ?? null);
  if (responses) installResponseLayer(app, responses, exchanges);
  // Second: every request the hit path passes on is followed to its end.
  app.addHook('onRequest', exchanges.hook);

  const watchForwarding = untrustedForwardingWatch(config, log);
  // Callback style: this runs on every request, and an async hook costs a promise each time.
  app.addHook('onRequest', (req, reply, done) => {
    watchForwarding?.(req);
    reply.header('x-request-id', String(req.id));
    if (!isPrivatePath(req.url)) reply.headers(CORS_HEADERS);
    if (req.url.startsWith('/api')) reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    done();
  });
  app.addHook('onRoute', (route) => {
    const decl = route.config?.decl;
    const hooks = [
      ...(decl?.deprecated ? [deprecationHook(base, decl.deprecated)] : []),
      ...(decl?.deprecatedParams ? [parameterDeprecationHook(base, decl.deprecatedParams)] : []),
    ];
    if (hooks.length > 0) route.onSend = route.onSend ? [...[route.onSend].flat(), ...hooks] : hooks;
  });

  app.addHook('onRequest', prefixRefusalHook);
  app.addHook('onSend', canonicalLinkHook(base));

  app.setErrorHandler((err, req, reply) => sendProblem(req, reply, base, err));
  app.setNotFoundHandler(notFoundHandler(base, 'route'));

  // Callback style: a charged request sets its rate-limit headers without a promise. Uncharged ones (operator
  // probes included) still advertise the caller's api-ip state: the contract puts the fields on every response.
  app.addHook('onSend', (req, reply, payload, done) => {
    const pending = guards.headers(req, reply);
    if (!pending) return done(null, payload);
    pending.then(() => done(null, payload), done);
  });

  withConditionalRequests(app, (scope) => {
    registerRoutes(
      scope,
      PUBLIC_ROUTES,
      services,
      (req) => guards.for(req),
      (decl) => guards.hooks(decl),
    );
    routeOtherMethods(scope, PUBLIC_ROUTES, { maxParamLength: MAX_PARAM_LENGTH, baseUrl: base });
  });
  // Private operator surface: POST/DELETE, not in the public route table, OpenAPI or MCP.
  app.register(adminRoutes, {
    token: config.adminToken,
    keys: services.stores.keys,
    sessions: services.xSessions,
    limiter: services.stores.limiter,
  });
  if (typeof opts.push === 'object') {
    // The keyed exception to the GET-only public surface (POST/DELETE), and the WebSub hub every feed names.
    const shared = { baseUrl: base, allowPrivate: config.webhookAllowPrivate, limiter: services.stores.limiter };
    app.register(watchRoutes, {
      ...shared,
      follow: opts.push.follow,
      keys: services.stores.keys,
      watchesPerKey: config.watchesPerKey,
    });
    app.register(hubRoutes, { ...shared, hub: opts.push.hub });
  }
  registerMcp(app, services, guards, PUBLIC_ROUTES);
  // Operator probes and metrics: outside the route table (no OpenAPI/MCP) and outside the rate limits; on a port of
  // their own when THREADMARK_OPS_PORT is set (buildOpsServer), so the public port does not expose them.
  if (config.opsPort === undefined) app.register(opsRoutes, opsOptions(services));
  exchanges.add(countExchanges(services.metrics));
  countClientErrors(app, services.metrics);
  exchanges.add(drainOnClose(app));
  exchanges.add(accessLine);
  return app;
}

/** First path segments of the service's own routes, which a prefixed link never shadows. */
function reservedSegments(): Set<string> {
  return new Set(
    PUBLIC_ROUTES.map((r) => (r.decl.path.split('/')[1] ?? '').toLowerCase()).filter((s) => !s.startsWith('{')),
  );
}

function opsOptions(services: Services) {
  return { stores: services.stores, providers: services.providerHealth, metrics: services.metrics };
}

/** The operator server for THREADMARK_OPS_PORT: /healthz, /readyz and /metrics, nothing else. */
export function buildOpsServer(services: Services, opts: ServerOptions = {}): FastifyInstance {
  const base = services.config.baseUrl;
  const ops = Fastify({ logger: opts.logger ?? { level: services.config.logLevel }, genReqId: nextRequestId });
  ops.setErrorHandler((err, req, reply) => sendProblem(req, reply, base, err));
  ops.setNotFoundHandler(notFoundHandler(base, 'operator route'));
  ops.register(opsRoutes, opsOptions(services));
  return ops;
}
