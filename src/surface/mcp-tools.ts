// MCP tools generated from the route declarations that name one (`mcpTool`): the input schema is the route's own
// path and query parameters, minus the ones that pick a representation; the output schema is the route's JSON
// representation without `markdown`. A call reads that JSON: its `markdown` member is the text, the rest the
// structured result.
import { encodePart } from '../domain/links.ts';
import { platformPostLink } from '../domain/pasted-link.ts';
import { z } from 'zod';
import type { RouteDecl, RouteDef } from '../contract/route-decl.ts';
import { routeParams, type JsonSchema, type ParamInfo } from './params.ts';

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: {
    type: 'object';
    properties: Record<string, JsonSchema>;
    required: string[];
    additionalProperties: false;
  };
  outputSchema: { type: 'object'; [k: string]: unknown };
  decl: RouteDecl;
  params: ParamInfo[];
}

export const TOOL_ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

function representationParams(decl: RouteDecl): Set<string> {
  return new Set([...(decl.formatParams ?? ['format']), ...(decl.mcpOmit ?? [])]);
}

/**
 * JSON Schema draft-07 without `$schema`: MCP clients validate structuredContent with it (the official SDK uses
 * Ajv's draft-07 default, which refuses a 2020-12 meta-schema reference).
 */
export function outputSchemaOf(schema: z.ZodType): ToolDef['outputSchema'] {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  if (json.type !== 'object') throw new Error('an MCP output schema must describe an object');
  return json as ToolDef['outputSchema'];
}

/** A tool's structuredContent is the JSON representation without its `markdown`, which is the text content. */
export function withoutMarkdown(schema: ToolDef['outputSchema']): ToolDef['outputSchema'] {
  const { properties, required, ...rest } = schema as {
    properties?: Record<string, unknown>;
    required?: string[];
    [k: string]: unknown;
  };
  const { markdown: _text, ...kept } = properties ?? {};
  const out: ToolDef['outputSchema'] = { ...rest, type: 'object', properties: kept };
  if (required) out.required = required.filter((name) => name !== 'markdown');
  return out;
}

const RESULT_NOTE =
  ' The result carries the Markdown as text and the same read as structured data (the JSON representation without its markdown field); ' +
  'failures come back as isError results holding the problem document (code, detail, resolution).';

export function toolDefs(routes: readonly RouteDef[]): ToolDef[] {
  return routes.flatMap(({ decl }) => {
    if (!decl.mcpTool) return [];
    if (!decl.json) throw new Error(`${decl.operationId} names an MCP tool but declares no JSON body schema`);
    const skip = representationParams(decl);
    const params = routeParams(decl).filter((p) => !skip.has(p.name));
    const properties: Record<string, JsonSchema> = {};
    for (const p of params)
      properties[p.name] = { ...p.schema, ...(p.description ? { description: p.description } : {}) };
    return [
      {
        name: decl.mcpTool,
        title: decl.summary,
        description: `${decl.summary}. ${decl.description}${RESULT_NOTE} Same as GET ${decl.path}.`,
        inputSchema: {
          type: 'object',
          properties,
          required: params.filter((p) => p.required).map((p) => p.name),
          additionalProperties: false,
        },
        outputSchema: withoutMarkdown(outputSchemaOf(decl.json)),
        decl,
        params,
      },
    ];
  });
}

/** Tool arguments → the REST URL of the JSON representation they stand for. Scalars go as their string form. */
export function toolRequestUrl(tool: ToolDef, args: Record<string, unknown>): string {
  const text = (v: unknown) =>
    typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
  let path = tool.decl.path;
  const qs = new URLSearchParams();
  for (const p of tool.params) {
    const given = text(args[p.name]);
    // An agent pastes what it has: a mirror's or Nitter's link to a post is read as the post's x.com link.
    const value = p.name === 'url' && given !== undefined ? platformPostLink(given) : given;
    if (p.in === 'path') {
      if (value === undefined || value === '') throw new Error(`\`${p.name}\` is required.`);
      path = path.replace(`{${p.name}}`, encodePart(value));
    } else if (value !== undefined) {
      qs.set(p.name, value);
    }
  }
  qs.set((tool.decl.formatParams ?? ['format'])[0]!, 'json');
  return `${path}?${qs.toString()}`;
}
