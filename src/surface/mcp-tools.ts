// MCP tools generated from the route declarations that name one (`mcpTool`): the input schema is the route's own
// path and query parameters, minus the ones that pick a representation (tools always answer Markdown).
import type { RouteDecl, RouteDef } from '../http/route-decl.ts';
import { routeParams, type JsonSchema, type ParamInfo } from './params.ts';

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required: string[]; additionalProperties: false };
  decl: RouteDecl;
  params: ParamInfo[];
}

function representationParams(decl: RouteDecl): Set<string> {
  return new Set(decl.formatParams ?? ['format']);
}

export function toolDefs(routes: readonly RouteDef[]): ToolDef[] {
  return routes.flatMap(({ decl }) => {
    if (!decl.mcpTool) return [];
    const skip = representationParams(decl);
    const params = routeParams(decl).filter((p) => !skip.has(p.name));
    const properties: Record<string, JsonSchema> = {};
    for (const p of params) properties[p.name] = { ...p.schema, ...(p.description ? { description: p.description } : {}) };
    return [
      {
        name: decl.mcpTool,
        title: decl.summary,
        description: `${decl.summary}. ${decl.description} Returns the Markdown representation of GET ${decl.path}.`,
        inputSchema: { type: 'object', properties, required: params.filter((p) => p.required).map((p) => p.name), additionalProperties: false },
        decl,
        params,
      },
    ];
  });
}

/** Tool arguments → the REST URL they stand for. Scalars are sent as their string form (true → "true"). */
export function toolRequestUrl(tool: ToolDef, args: Record<string, unknown>): string {
  const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);
  let path = tool.decl.path;
  const qs = new URLSearchParams();
  for (const p of tool.params) {
    const value = text(args[p.name]);
    if (p.in === 'path') {
      if (value === undefined || value === '') throw new Error(`\`${p.name}\` is required.`);
      path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    } else if (value !== undefined) {
      qs.set(p.name, value);
    }
  }
  const query = qs.toString();
  return query ? `${path}?${query}` : path;
}
