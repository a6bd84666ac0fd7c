// Parameters of a declared route as JSON Schema (zod 4's own converter, input side: what a caller sends).
// OpenAPI, /docs and the MCP tool schemas all read this, so they describe exactly what validation accepts.
import { z } from 'zod';
import type { RouteDecl } from '../contract/route-decl.ts';

export type JsonSchema = Record<string, unknown>;

export interface ParamInfo {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  /** JSON Schema of the value, without its description. */
  schema: JsonSchema;
}

function fromObject(obj: z.ZodObject | undefined, where: 'path' | 'query'): ParamInfo[] {
  if (!obj) return [];
  const json = z.toJSONSchema(obj, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const { description, ...schema } = prop;
    return {
      name,
      in: where,
      // Path segments are always present; zod refinements do not mark them required on their own.
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema,
    };
  });
}

export function routeParams(decl: RouteDecl): ParamInfo[] {
  return [...fromObject(decl.params, 'path'), ...fromObject(decl.query, 'query')];
}

/** Short human rendering of a parameter's accepted values, for docs tables. */
export function describeValues(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map(String).join(', ');
  if (typeof schema.pattern === 'string') return `${typeName(schema)} matching ${schema.pattern}`;
  return typeName(schema);
}

/** `type` is a name or a list of names (`["string", "null"]`, written as `string,null`). */
function typeName(schema: JsonSchema): string {
  const type = schema.type;
  if (Array.isArray(type)) return type.map(String).join(',');
  return typeof type === 'string' ? type : 'string';
}
