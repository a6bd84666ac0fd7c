// A public route, declared once. Validation, OpenAPI, /docs and the MCP tool list are all derived from these.
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import type { Representation } from './representation.ts';
import type { RequestGuards, Services } from './services.ts';
import { isCatalogCode, type CatalogCode } from '../problems/catalog.ts';
import { InputRefusal } from './refusal.ts';
import type { Rendered } from './rendered.ts';
import type { ListResource } from '../domain/lists.ts';

export type { Rendered };

export type Surface = 'v1' | 'permalink' | 'legacy' | 'discovery' | 'mcp';
export type BrowseResource = ListResource;

export interface Deprecation {
  /** Successor path for a single-successor alias (convert). */
  successor?: string;
  /** For browse: the parameter that selects the successor, and the map from its values to successor paths. */
  successorParameter?: string;
  successors?: Record<string, string>;
  /** The concrete successor for one request (absent when the request names none), for rel="successor-version". */
  resolve?: (query: Record<string, unknown>) => string | undefined;
}

/** A query parameter kept working under an older name: requests naming it are answered with deprecation signals. */
export interface DeprecatedParam {
  name: string;
  /** The parameter that replaces it, same values and meaning. */
  successor: string;
}

/** The one media type of a route that declares no representations (discovery documents, feeds, oEmbed). */
export interface FixedMedia {
  /** The media type of the 200 body, without parameters unless they matter (profile=...). */
  mediaType: string;
  /** JSON Schema of the 200 body, when it is JSON. */
  schema?: Record<string, unknown>;
  /** Further media types the route answers with when a query parameter picks them (feeds' `type`). */
  alternatives?: string[];
}

/** Narrows an unknown value (a raw query object) to a record whose fields can be inspected. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** Path parameters of a route that has none. */
export const NO_PARAMS = z.object({});

export interface RouteDecl<Q extends z.ZodObject = z.ZodObject, P extends z.ZodObject = z.ZodObject> {
  operationId: string;
  /** OpenAPI-style path, e.g. /api/v1/profiles/{handle}. */
  path: string;
  surface: Surface;
  summary: string;
  description: string;
  tags: string[];
  /** Path parameters (NO_PARAMS when the path has none); the handler receives their parsed output. */
  params: P;
  /** Query parameters; the handler receives their parsed output. */
  query: Q;
  /**
   * Representations the route can produce (obsidian only where the format parameter offers it).
   * Empty = a fixed media type (discovery documents), no negotiation.
   */
  representations: Representation[];
  /** Whether the optional bearer key is read (posts routes ignore it). */
  keyAware: boolean;
  /** Error codes this route can answer with (besides the ones every route shares). */
  errors: CatalogCode[];
  browseResource?: BrowseResource;
  deprecated?: Deprecation;
  /** Query parameters of this route that are deprecated aliases of others. */
  deprecatedParams?: readonly DeprecatedParam[];
  /** Body of the JSON representation (drives the OpenAPI response schema and the MCP tool's outputSchema). */
  json?: z.ZodType;
  /** The MCP tool generated from this route, if any (only one route per capability carries it). */
  mcpTool?: string;
  /** Whether the route counts against the search allowance. */
  search?: boolean;
  /** Query parameters that select the representation, strongest first (default: format). */
  formatParams?: string[];
  /** Why the route has no runnable example (its addresses are issued by the service), shown in its place. */
  noExample?: string;
  /** The allowance a request is charged to instead of api-ip (the media proxy's own). */
  policy?: 'media-ip';
  /** Query parameters the MCP tool does not take (they shape a representation the tool does not return). */
  mcpOmit?: string[];
  /** For routes with no representations: the media type they answer with. */
  fixed?: FixedMedia;
  /**
   * A URL people paste into chats: known link-preview crawlers get the HTML page (Open Graph metadata) when
   * their Accept allows it, even with no Accept at all, and the 200 varies on User-Agent too.
   */
  linkPreview?: boolean;
}

/**
 * What a route may know of its request, whatever serves it (Fastify, or the home page's conversion calling a
 * permalink route in-process). `params` and `query` are the raw values before validation and the parsed ones after.
 */
export interface RequestFacts {
  readonly id: string;
  readonly method: string;
  /** The request target as received: path and query string. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** The request's own log (its lines carry the request id). */
  readonly log: { error(details: object, message: string): void };
  params: unknown;
  query: unknown;
}

/**
 * What a handler receives: the request, its parsed path and query, the negotiated representation, the services
 * and the guards bound to this request.
 */
export interface HandlerContext<Q = unknown, P = unknown> {
  req: RequestFacts;
  query: Q;
  params: P;
  representation: Representation;
  services: Services;
  guards: RequestGuards;
}

export type Handler<Q, P> = (ctx: HandlerContext<Q, P>) => Promise<Rendered>;

/** The per-request inputs the server hands every route, before validation. */
export interface RouteEnv {
  representation: Representation;
  services: Services;
  guards: RequestGuards;
}

/** A declared route ready to mount: `handle` validates path and query with the declaration's own schemas. */
export interface RouteDef {
  decl: RouteDecl;
  handle(req: RequestFacts, env: RouteEnv): Promise<Rendered>;
}

/**
 * One zod issue → one refusal: each schema's error message is the catalog code to answer with (see
 * contract/params/common.ts); anything else is a generic invalid_params.
 */
export function validationRefusal(issue: z.core.$ZodIssue | undefined, where: 'params' | 'query'): InputRefusal {
  const code = issue && isCatalogCode(issue.message) ? issue.message : 'invalid_params';
  const param = issue?.path.join('/') || 'parameter';
  const place = where === 'params' ? 'path segment' : 'query parameter';
  // A check that knows more than "invalid" (how many handles were given) says so in its issue's params.
  const own = issue?.code === 'custom' ? (issue.params as { detail?: unknown } | undefined)?.detail : undefined;
  if (typeof own === 'string') return new InputRefusal(code, own);
  return new InputRefusal(code, code === 'route_not_found' ? undefined : `Invalid ${place} \`${param}\`.`);
}

function parseInput<S extends z.ZodObject>(schema: S, input: unknown, where: 'params' | 'query'): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationRefusal(result.error.issues[0], where);
  return result.data;
}

/**
 * The route kernel: a declaration and a handler typed by the declaration's schemas. Path parameters are
 * validated before the query, as Fastify orders them; the parsed values replace the raw ones on the request
 * so later hooks (deprecation links, the problem mapper) read what the handler read.
 */
export function defineRoute<Q extends z.ZodObject, P extends z.ZodObject>(
  decl: RouteDecl<Q, P>,
  handler: Handler<z.output<Q>, z.output<P>>,
): RouteDef {
  return {
    decl,
    handle(req, env) {
      const params = parseInput(decl.params, req.params, 'params');
      req.params = params;
      const query = parseInput(decl.query, req.query, 'query');
      req.query = query;
      return handler({ req, query, params, ...env });
    },
  };
}

/** /api/v1/profiles/{handle} → /api/v1/profiles/:handle */
export function fastifyPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** Error codes every public route can answer with. */
export const COMMON_ERRORS: CatalogCode[] = [
  'bad_request',
  'request_timeout',
  'request_too_large',
  'route_not_found',
  'method_not_allowed',
  'not_acceptable',
  'rate_limited',
  'internal_error',
];
