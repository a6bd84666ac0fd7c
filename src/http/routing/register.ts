// Mounts declared routes on Fastify with the shared conventions and the per-route hook chain:
// method guard → (API key → rate limits, added by the guards) → negotiation → validation → handler.
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { acceptsHtml, chooseRepresentation } from '../negotiation/negotiate.ts';
import type { Representation } from '../../contract/representation.ts';
import { isPreviewCrawler, previewDecision, PREVIEW_VARY } from '../../contract/link-preview.ts';
import { mergeVary } from '../negotiation/entity-tags.ts';
import { publicMethodGuard } from './conventions.ts';
import { READ_METHODS } from './method-fallback.ts';
import { fastifyPath, isRecord, type RouteDecl, type RouteDef } from '../../contract/route-decl.ts';
import type { RequestGuards, Services } from '../../contract/services.ts';
import { Problem } from '../../problems/problem.ts';

declare module 'fastify' {
  interface FastifyRequest {
    representation?: Representation;
    /** The link-preview page was chosen from the User-Agent alone (no cache in front set X-Link-Preview). */
    previewByUserAgent?: boolean;
  }
  interface FastifyContextConfig {
    decl?: RouteDecl;
  }
}

/** The format parameter, when valid, decides; otherwise Accept does (406 when unsatisfiable). */
function negotiationHook(
  decl: Pick<RouteDecl, 'representations' | 'formatParams' | 'linkPreview'>,
): preValidationAsyncHookHandler {
  const formats = new Map<string, Representation>(decl.representations.map((r) => [r, r]));
  const params = decl.formatParams ?? ['format'];
  return async (req: FastifyRequest) => {
    const query = isRecord(req.query) ? req.query : {};
    for (const name of params) {
      const value = query[name];
      if (value === undefined) continue;
      // An invalid value is left to validation, which answers with the parameter's own code.
      const chosen = typeof value === 'string' ? formats.get(value) : undefined;
      if (chosen) req.representation = chosen;
      return;
    }
    if (decl.linkPreview && formats.has('html') && acceptsHtml(req.headers)) {
      const decision = previewDecision(req.headers);
      if (isPreviewCrawler(decision)) {
        req.representation = 'html';
        req.previewByUserAgent = decision === 'ua-crawler';
        return;
      }
    }
    const rep = chooseRepresentation(undefined, req.headers);
    if (!formats.has(rep)) throw new Problem('not_acceptable', `This route does not produce ${rep}.`);
    req.representation = rep;
  };
}

/** The same lifetimes for the caller's own cache only: no shared-cache directive survives. */
export function privateCopy(cacheControl: string | undefined): string {
  if (!cacheControl || !/^public\b/.test(cacheControl)) return cacheControl ?? 'private, no-cache';
  const kept = cacheControl
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== 'public' && !/^s-maxage=/.test(d));
  return ['private', ...kept].join(', ');
}

export function registerRoutes(
  app: FastifyInstance,
  defs: readonly RouteDef[],
  services: Services,
  guardsOf: (req: FastifyRequest) => RequestGuards,
  extraPreValidation: (decl: RouteDecl) => preValidationAsyncHookHandler[] = () => [],
): void {
  for (const def of defs) {
    const { decl } = def;
    app.route({
      // Other methods reach the wildcard of method-fallback.ts, which answers 405 for them.
      method: READ_METHODS,
      url: fastifyPath(decl.path),
      // No Fastify schema: the route kernel (route-decl.ts) validates with the declaration's zod schemas, so the
      // handler receives their inferred types.
      config: { decl },
      onRequest: publicMethodGuard,
      // Routes with a fixed media type (discovery documents) declare no representations and skip negotiation.
      preValidation: [...extraPreValidation(decl), ...(decl.representations.length ? [negotiationHook(decl)] : [])],
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const representation = req.representation ?? 'markdown';
        const out = await def.handle(req, { representation, services, guards: guardsOf(req) });
        reply.code(out.status ?? 200);
        reply.headers(out.headers);
        // The same URL answers crawlers with HTML: shared caches key on the normalised crawler header, which a
        // cache in front sets from the User-Agent. A page chosen from the User-Agent alone (nothing in front set
        // the header) would be stored under the header's absence, where other callers look: private.
        if (decl.linkPreview && out.headers.vary) reply.header('vary', mergeVary(out.headers.vary, PREVIEW_VARY));
        if (req.previewByUserAgent) reply.header('cache-control', privateCopy(out.headers['cache-control']));
        // An empty content type is a bodyless reply (a feed's 304): no payload, so no default text/plain either.
        if (!out.contentType) return reply.send();
        reply.header('content-type', out.contentType);
        return reply.send(out.stream ?? out.bytes ?? out.body);
      },
    });
  }
}
