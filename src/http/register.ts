// Mounts declared routes on Fastify with the shared conventions and the per-route hook chain:
// method guard → (API key → rate limits, added by the guards) → negotiation → validation → handler.
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { acceptsHtml, chooseRepresentation, type Representation } from './negotiate.ts';
import { isLinkPreviewCrawler } from './link-preview.ts';
import { mergeVary } from './entity-tags.ts';
import { publicMethodGuard } from './conventions.ts';
import { fastifyPath, type RouteDef } from './route-decl.ts';
import type { Services } from '../services.ts';
import { Problem } from '../problems/problem.ts';

declare module 'fastify' {
  interface FastifyRequest {
    representation?: Representation;
  }
  interface FastifyContextConfig {
    decl?: RouteDef['decl'];
  }
}

/** The format parameter, when valid, decides; otherwise Accept does (406 when unsatisfiable). */
function negotiationHook(def: RouteDef): preValidationHookHandler {
  const formats = new Set<string>(def.decl.representations);
  const params = def.decl.formatParams ?? ['format'];
  return async (req: FastifyRequest) => {
    const query = req.query as Record<string, unknown>;
    for (const name of params) {
      const value = query[name];
      if (value === undefined) continue;
      // An invalid value is left to validation, which answers with the parameter's own code.
      if (typeof value === 'string' && formats.has(value)) req.representation = value as Representation;
      return;
    }
    if (def.decl.linkPreview && formats.has('html') && isLinkPreviewCrawler(req.headers['user-agent']) && acceptsHtml(req.headers)) {
      req.representation = 'html';
      return;
    }
    const rep = chooseRepresentation(undefined, req.headers);
    if (!formats.has(rep)) throw new Problem('not_acceptable', `This route does not produce ${rep}.`);
    req.representation = rep;
  };
}

export function registerRoutes(
  app: FastifyInstance,
  defs: RouteDef[],
  services: Services,
  extraPreValidation: (def: RouteDef) => preValidationHookHandler[] = () => [],
): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const def of defs) {
    const { decl } = def;
    typed.route({
      // Every method the server knows, so the method guard can answer 405 instead of the router's 404.
      method: app.supportedMethods,
      url: fastifyPath(decl.path),
      schema: { querystring: decl.query, ...(decl.params ? { params: decl.params } : {}) },
      config: { decl },
      onRequest: publicMethodGuard,
      // Routes with a fixed media type (discovery documents) declare no representations and skip negotiation.
      preValidation: [...extraPreValidation(def), ...(decl.representations.length ? [negotiationHook(def)] : [])],
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const out = await def.handle({
          req,
          query: req.query as Record<string, unknown>,
          params: req.params as Record<string, string>,
          representation: req.representation ?? 'markdown',
          services,
        });
        reply.code(out.status ?? 200);
        reply.headers(out.headers);
        // The same URL answers crawlers with HTML: shared caches must key on the User-Agent as well.
        if (decl.linkPreview && out.headers.vary) reply.header('vary', mergeVary(out.headers.vary, 'User-Agent'));
        // An empty content type is a bodyless reply (a feed's 304): no payload, so no default text/plain either.
        if (!out.contentType) return reply.send();
        reply.header('content-type', out.contentType);
        return reply.send(out.bytes ?? out.body);
      },
    });
  }
}
