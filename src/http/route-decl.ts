// A public route, declared once. Validation, OpenAPI, /docs and the MCP tool list are all derived from these.
import type { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { Representation } from './negotiate.ts';
import type { Services } from '../services.ts';

export type Surface = 'v1' | 'permalink' | 'legacy' | 'discovery' | 'mcp';
export type BrowseResource = 'profile' | 'followers' | 'following' | 'search';

export interface Deprecation {
  /** Successor path for a single-successor alias (convert). */
  successor?: string;
  /** For browse: the parameter that selects the successor, and the map from its values to successor paths. */
  successorParameter?: string;
  successors?: Record<string, string>;
  /** The concrete successor for one request (absent when the request names none), for rel="successor-version". */
  resolve?: (query: Record<string, unknown>) => string | undefined;
}

export interface RouteDecl {
  operationId: string;
  /** OpenAPI-style path, e.g. /api/v1/profiles/{handle}. */
  path: string;
  surface: Surface;
  summary: string;
  description: string;
  tags: string[];
  params?: z.ZodObject;
  query: z.ZodObject;
  /**
   * Representations the route can produce (obsidian only where the format parameter offers it).
   * Empty = a fixed media type (discovery documents), no negotiation.
   */
  representations: Representation[];
  /** Whether the optional bearer key is read (posts routes ignore it). */
  keyAware: boolean;
  /** Error codes this route can answer with (besides the ones every route shares). */
  errors: string[];
  browseResource?: BrowseResource;
  deprecated?: Deprecation;
  /** Body of the JSON representation (drives the OpenAPI response schema and the MCP tool's outputSchema). */
  json?: z.ZodType;
  /** The MCP tool generated from this route, if any (only one route per capability carries it). */
  mcpTool?: string;
  /** Whether the route counts against the search allowance. */
  search?: boolean;
  /** Query parameters that select the representation, strongest first (default: format). */
  formatParams?: string[];
  /**
   * A URL people paste into chats: known link-preview crawlers get the HTML page (Open Graph metadata) when
   * their Accept allows it, even with no Accept at all, and the 200 varies on User-Agent too.
   */
  linkPreview?: boolean;
}

export interface Rendered {
  status?: number;
  body: string;
  /** `body` already encoded as UTF-8 (memoised renders): sent instead of it, so a hit skips the encoding. */
  bytes?: Buffer;
  contentType: string;
  headers: Record<string, string>;
}

export interface HandlerContext<Q = Record<string, unknown>, P = Record<string, string>> {
  req: FastifyRequest;
  query: Q;
  params: P;
  representation: Representation;
  services: Services;
}

export interface RouteDef<Q = any, P = any> {
  decl: RouteDecl;
  handle(ctx: HandlerContext<Q, P>): Promise<Rendered>;
}

/** /api/v1/profiles/{handle} → /api/v1/profiles/:handle */
export function fastifyPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** Error codes every public route can answer with. */
export const COMMON_ERRORS = ['bad_request', 'request_timeout', 'request_too_large', 'route_not_found', 'method_not_allowed', 'not_acceptable', 'rate_limited', 'internal_error'];
