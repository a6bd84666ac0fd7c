// OpenAPI 3.1 description generated from the route declarations and the problem catalog.
import { z } from 'zod';
import { CATALOG } from '../problems/catalog.ts';
import { COMMON_ERRORS, type RouteDef, type RouteDecl } from '../contract/route-decl.ts';
import { CONTENT_TYPES } from '../contract/representation.ts';
import { LIFECYCLE } from '../contract/lifecycle.ts';
import { fixedMediaTypes } from './fixed-media.ts';
import { routeParams, type JsonSchema } from './params.ts';
import { lifecyclePolicy } from './lifecycle.ts';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from './service-info.ts';
import { DISCOVERY_PATHS } from './paths.ts';
import { pushPaths } from './push-openapi.ts';
import { HEADER_REFS, problemResponses } from './problem-responses.ts';

export interface OpenApiOptions {
  baseUrl: string;
  version: string;
}

const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'RFC 9457 problem document.',
  required: ['type', 'title', 'status', 'code', 'detail', 'resolution', 'documentation_url'],
  properties: {
    type: {
      type: 'string',
      format: 'uri',
      description: 'Documentation anchor of the code: {base}/docs/reliability#<code-with-hyphens>.',
    },
    title: { type: 'string' },
    status: { type: 'integer' },
    code: {
      type: 'string',
      description: 'Stable machine code: a catalog code, `<provider>_error|_empty|_network` or `all_providers_failed`.',
      examples: Object.keys(CATALOG),
    },
    detail: { type: 'string' },
    resolution: { type: 'string', description: 'What to do next.' },
    documentation_url: { type: 'string', format: 'uri' },
    request_id: { type: 'string' },
    source: { type: 'string', description: 'The upstream provider whose answer this is (who said a post is gone).' },
    see_also: {
      type: 'array',
      description: 'Where to look next for a missing post or profile: its author, accounts named like it.',
      items: {
        type: 'object',
        required: ['title', 'href'],
        properties: { title: { type: 'string' }, href: { type: 'string', format: 'uri' } },
      },
    },
  },
  additionalProperties: true,
};

/** Bodies whose fields the contract leaves open: clients must ignore unknown members. */
const JSON_ENVELOPE: JsonSchema = {
  type: 'object',
  description: 'JSON envelope: the rendered Markdown plus the structured data. Unknown members may be added within v1.',
  properties: { markdown: { type: 'string' } },
  additionalProperties: true,
};

const TEXT: JsonSchema = { type: 'string' };

function mediaTypeKey(contentType: string): string {
  return contentType.replace(/;\s*charset=[^;]+/i, '');
}

function successContent(decl: RouteDecl, defs: Record<string, JsonSchema>): Record<string, { schema: JsonSchema }> {
  const fixed = decl.fixed;
  if (fixed) {
    // A route whose JSON alternative has a declared body (the export) describes it like a negotiated one.
    const schemaOf = (t: string) =>
      (t === fixed.mediaType && fixed.schema) ||
      (t === 'application/json' && decl.json ? jsonBodyOf(decl, defs) : t.includes('json') ? { type: 'object' } : TEXT);
    return Object.fromEntries(fixedMediaTypes(fixed).map((t) => [t, { schema: schemaOf(t) }]));
  }
  const out: Record<string, { schema: JsonSchema }> = {};
  for (const rep of decl.representations) {
    out[mediaTypeKey(CONTENT_TYPES[rep])] = { schema: rep === 'json' ? jsonBodyOf(decl, defs) : TEXT };
  }
  return out;
}

/**
 * The route's declared JSON body (the same schema the MCP tools' outputSchema comes from), else an open envelope.
 * Recursive parts (reply trees) become named components: a `#/$defs/…` pointer means nothing inside OpenAPI.
 */
function jsonBodyOf(decl: RouteDecl, defs: Record<string, JsonSchema>): JsonSchema {
  if (!decl.json) return JSON_ENVELOPE;
  const {
    $schema: _drop,
    $defs,
    ...schema
  } = z.toJSONSchema(decl.json, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const prefix = `${decl.operationId}_`;
  const moved = JSON.parse(
    JSON.stringify({ schema, $defs: $defs ?? {} }).replaceAll('"#/$defs/', `"#/components/schemas/${prefix}`),
  ) as {
    schema: JsonSchema;
    $defs: Record<string, JsonSchema>;
  };
  for (const [name, def] of Object.entries(moved.$defs)) defs[prefix + name] = def;
  return moved.schema;
}

function errorResponses(decl: RouteDecl): Record<string, unknown> {
  return problemResponses([...decl.errors, ...COMMON_ERRORS], decl.deprecated !== undefined);
}

function operation(decl: RouteDecl, defs: Record<string, JsonSchema>): Record<string, unknown> {
  const deprecatedParams = new Set((decl.deprecatedParams ?? []).map((p) => p.name));
  const parameters = routeParams(decl).map((p) => ({
    name: p.name,
    in: p.in,
    required: p.required,
    ...(p.description ? { description: p.description } : {}),
    ...(p.in === 'query' && deprecatedParams.has(p.name) ? { deprecated: true } : {}),
    schema: p.schema,
  }));
  const op: Record<string, unknown> = {
    operationId: decl.operationId,
    summary: decl.summary,
    description: decl.description,
    tags: decl.tags,
    parameters,
    responses: {
      '200': {
        description: 'OK',
        ...(decl.deprecated ? { headers: HEADER_REFS } : {}),
        content: successContent(decl, defs),
      },
      ...errorResponses(decl),
    },
  };
  // The key is optional: anonymous access stays valid on every operation.
  if (decl.keyAware) op.security = [{}, { bearerKey: [] }];
  if (decl.mcpTool) op['x-mcp-tool'] = decl.mcpTool;
  const dep = decl.deprecated;
  if (dep) {
    op.deprecated = true;
    if (dep.successor) op['x-successor-version'] = dep.successor;
    if (dep.successorParameter && dep.successors) {
      op['x-successor-parameter'] = dep.successorParameter;
      op['x-successor-version-map'] = { ...dep.successors };
    }
  }
  return op;
}

export function buildOpenApi(routes: readonly RouteDef[], opts: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  const defs: Record<string, JsonSchema> = {};
  for (const { decl } of routes) {
    paths[decl.path] = { get: operation(decl, defs) };
    for (const t of decl.tags) tags.add(t);
  }
  Object.assign(paths, pushPaths());
  tags.add('push');
  return {
    openapi: '3.1.0',
    info: {
      title: SERVICE_NAME,
      version: opts.version,
      description: SERVICE_DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: opts.baseUrl }],
    externalDocs: {
      description: 'Guides, error codes and versioning policy',
      url: `${opts.baseUrl}${DISCOVERY_PATHS.docs}`,
    },
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Problem: PROBLEM_SCHEMA, ...defs },
      securitySchemes: {
        bearerKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Optional static key issued by the operator. Raises the search allowance on key-aware routes; ' +
            'everything is readable without it. An unknown or disabled key answers 401 invalid_key.',
        },
      },
      headers: {
        Deprecation: {
          description: 'RFC 9745 deprecation date.',
          schema: { type: 'string', examples: [LIFECYCLE.deprecationHeader] },
        },
        Sunset: {
          description: 'RFC 8594 sunset date.',
          schema: { type: 'string', examples: [LIFECYCLE.sunsetHeader] },
        },
        Link: {
          description: 'rel="deprecation", rel="sunset" and, when resolvable, rel="successor-version".',
          schema: { type: 'string' },
        },
      },
    },
    'x-api-lifecycle': lifecyclePolicy(routes, opts.baseUrl),
  };
}
