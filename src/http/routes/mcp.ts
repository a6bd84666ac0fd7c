// /mcp: the Model Context Protocol over Streamable HTTP, stateless (a fresh server and transport per POST).
// Registered straight on Fastify because it needs POST, outside the GET-only public route convention.
//   POST    JSON-RPC messages; answered as JSON (no SSE stream is ever opened). Malformed JSON → 400 with a
//           JSON-RPC parse error (-32700, id null); an empty body → 400 invalid_body.
//   GET     with Accept: text/event-stream (a client asking for the server-sent stream) → 405, Allow: POST, as the
//           transport specifies for servers without one; any other GET or HEAD → a short JSON description.
//   OPTIONS CORS preflight. Anything else → 405 method_not_allowed.
// Bearer keys: an unknown or disabled key is 401 invalid_key before any message is handled (GET and POST), as on
// every key-aware route. Tool calls go through the REST routes (see src/mcp/server.ts): the caller's Authorization
// header is forwarded, so a valid key gets its own allowances, and the caller's resolved IP is used so api-ip and
// search limits charge them.
import { parseEveryBodyAsJson } from '../routing/json-body.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../contract/services.ts';
import { Problem } from '../../problems/problem.ts';
import { DISCOVERY_PATHS } from '../../surface/paths.ts';
import { SERVICE_NAME } from '../../surface/service-info.ts';
import { createMcpServer, type RouteFetch } from '../../mcp/server.ts';
import { loadMcpSdk } from '../../mcp/sdk.ts';
import { toolDefs } from '../../surface/mcp-tools.ts';
import type { RouteDef } from '../../contract/route-decl.ts';
import { CORS_HEADERS } from '../routing/conventions.ts';
import { problemBody } from '../failures/problem-reply.ts';
import { clientAddress } from '../guards/client-address.ts';
import type { Guards } from '../guards/guards.ts';

const MCP_METHODS = 'GET, HEAD, POST, OPTIONS';

/** The body of a POST whose JSON does not parse (see parseEveryBodyAsJson). */
const MALFORMED = Symbol('malformed JSON');

/** Most JSON-RPC messages one POST may carry: a batch is many requests' worth of work behind one HTTP request. */
export const MAX_MCP_BATCH = 20;

/**
 * api-ip points a POST costs: one per message that is not a tool call (a tool call is charged by the REST route
 * that serves it, like any other request), and at least one, so even a batch of notifications is counted.
 */
function mcpPoints(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  const own = messages.filter((m) => (m as { method?: unknown } | null)?.method !== 'tools/call').length;
  return Math.max(1, own);
}

function describe(services: Services, tools: string[]) {
  const base = services.config.baseUrl;
  return {
    name: SERVICE_NAME,
    version: services.version,
    protocol: 'Model Context Protocol',
    transport: 'streamable-http',
    stateless: true,
    endpoint: `${base}${DISCOVERY_PATHS.mcp}`,
    usage:
      'POST JSON-RPC messages (initialize, tools/list, tools/call) with Accept: application/json, text/event-stream. No SSE stream is offered on GET.',
    tools,
    docs: `${base}${DISCOVERY_PATHS.docs}`,
  };
}

function wantsEventStream(req: FastifyRequest): boolean {
  return /text\/event-stream/i.test(req.headers.accept ?? '');
}

export function registerMcp(
  app: FastifyInstance,
  services: Services,
  guards: Guards,
  routes: readonly RouteDef[],
): void {
  const tools = toolDefs(routes);
  const toolNames = tools.map((t) => t.name);
  const base = services.config.baseUrl;

  app.register(async (scope) => {
    parseEveryBodyAsJson(scope, { malformed: MALFORMED });

    const keyCheck = guards.keyHook();

    scope.route({
      method: ['GET', 'HEAD'],
      url: DISCOVERY_PATHS.mcp,
      preValidation: keyCheck,
      handler: async (req, reply) => {
        if (wantsEventStream(req)) {
          throw new Problem(
            'method_not_allowed',
            'This stateless MCP endpoint offers no server-sent event stream; POST JSON-RPC messages instead.',
            {
              headers: { allow: 'POST' },
            },
          );
        }
        reply.header('cache-control', 'public, max-age=300');
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(describe(services, toolNames)));
      },
    });

    scope.options(DISCOVERY_PATHS.mcp, async (_req, reply) => {
      reply.code(204).headers({
        ...CORS_HEADERS,
        allow: MCP_METHODS,
        'access-control-allow-methods': MCP_METHODS,
        'access-control-allow-headers':
          'Authorization, Accept, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
        'access-control-max-age': '86400',
      });
      return reply.send();
    });

    scope.route({
      method: ['PUT', 'PATCH', 'DELETE'],
      url: DISCOVERY_PATHS.mcp,
      handler: async (req) => {
        throw new Problem(
          'method_not_allowed',
          `${req.method} is not accepted on /mcp (stateless: there is no session to delete).`,
          {
            headers: { allow: MCP_METHODS },
          },
        );
      },
    });

    scope.post(DISCOVERY_PATHS.mcp, { preValidation: keyCheck }, async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.body === undefined)
        throw new Problem('invalid_body', 'POST a JSON-RPC message (or a batch of them) as the body.');
      if (req.body === MALFORMED) {
        // JSON-RPC 2.0: a body that is not JSON is a parse error, answered with id null. It costs an api-ip point.
        await guards.chargeApi(req, 1);
        return reply
          .code(400)
          .type('application/json; charset=utf-8')
          .send(
            JSON.stringify({
              jsonrpc: '2.0',
              id: null,
              error: { code: -32700, message: 'Parse error: the body is not well-formed JSON.' },
            }),
          );
      }
      const size = Array.isArray(req.body) ? req.body.length : 1;
      await guards.chargeApi(req, size > MAX_MCP_BATCH ? 1 : mcpPoints(req.body));
      if (size > MAX_MCP_BATCH) {
        throw new Problem(
          'batch_too_large',
          `The batch has ${size} messages; at most ${MAX_MCP_BATCH} are accepted in one POST.`,
        );
      }
      // The transport writes the response itself, past the onSend hook: the rate-limit fields are set here.
      await guards.headers(req, reply);
      const { StreamableHTTPServerTransport } = await loadMcpSdk();
      const authorization = typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined;
      // The caller's Authorization header and resolved address go with every tool call, so a bearer key counts
      // and rate limits charge the caller exactly as on REST.
      const fetchRoute: RouteFetch = async (url) => {
        const res = await app.inject({
          method: 'GET',
          url,
          remoteAddress: clientAddress(req),
          headers: { accept: 'application/json', ...(authorization ? { authorization } : {}) },
        });
        return { status: res.statusCode, headers: res.headers, body: res.body };
      };
      const server = await createMcpServer(fetchRoute, tools, services.version);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      // The transport writes the response itself; keep the headers the shared hooks already set (CORS, request id).
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.raw.setHeader('access-control-expose-headers', 'Mcp-Session-Id, Mcp-Protocol-Version, X-Request-Id');
      try {
        await transport.handleRequest(req.raw, reply.raw, req.body);
      } catch (err) {
        req.log.error({ err }, 'mcp transport failed');
        if (!reply.raw.headersSent) {
          reply.raw.statusCode = 500;
          reply.raw.setHeader('content-type', 'application/problem+json; charset=utf-8');
          reply.raw.end(JSON.stringify(problemBody(base, new Problem('internal_error'), String(req.id))));
        } else if (!reply.raw.writableEnded) {
          reply.raw.end();
        }
      }
    });
  });
}
