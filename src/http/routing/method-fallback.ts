// Public reads are routed for GET, HEAD and OPTIONS only. Registered for every method Node's parser accepts, each
// read path cost the router a node and a compiled handler per method: megabytes over the route table, held by every
// instance (bench/RESULTS.md). Every other method reaches one wildcard route instead, which answers as the read's
// own route did: 405 with Allow where a public read lives (a reserved handle is no route; a legacy alias, or a
// deprecated parameter named, still says it is deprecated), the not-found answer elsewhere. A second router
// holding only the reads' GET paths, with Fastify's router options, tells the two apart, so a path matches here
// exactly when it matches there.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { fastifyPath, type RouteDecl, type RouteDef } from '../../contract/route-decl.ts';
import { methodNotAllowed, rejectReservedHandle } from './conventions.ts';
import { deprecationHook, parameterDeprecationHook } from '../negotiation/deprecation.ts';

/** The methods a public read's own route takes (its guard answers OPTIONS). */
export const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'];

export interface MethodFallbackOptions {
  /** The server's router option of the same name. */
  maxParamLength: number;
  baseUrl: string;
}

export function routeOtherMethods(app: FastifyInstance, defs: readonly RouteDef[], opts: MethodFallbackOptions): void {
  const reads = FindMyWay({ maxParamLength: opts.maxParamLength });
  for (const { decl } of defs) reads.on('GET', fastifyPath(decl.path), () => {}, decl);
  const deprecated = new WeakMap<FastifyRequest, RouteDecl>();
  app.route({
    method: app.supportedMethods.filter((m) => !READ_METHODS.includes(m)),
    url: '*',
    // Decided before any body is read, as the reads' own guard does.
    onRequest: async (req: FastifyRequest, reply: FastifyReply) => {
      const found = reads.find('GET', req.url);
      if (!found) {
        reply.callNotFound();
        return reply;
      }
      rejectReservedHandle(found.params);
      const decl = found.store as RouteDecl;
      if (decl.deprecated || decl.deprecatedParams) deprecated.set(req, decl);
      throw methodNotAllowed(req.method);
    },
    onSend: async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const decl = deprecated.get(req);
      if (!decl) return payload;
      const routeSignal = decl.deprecated ? deprecationHook(opts.baseUrl, decl.deprecated) : undefined;
      const paramSignal = decl.deprecatedParams
        ? parameterDeprecationHook(opts.baseUrl, decl.deprecatedParams)
        : undefined;
      let out = payload;
      if (routeSignal) out = await routeSignal(req, reply, out);
      return paramSignal ? paramSignal(req, reply, out) : out;
    },
    handler: async (_req, reply) => reply.callNotFound(),
  });
}
