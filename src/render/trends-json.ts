// The trends read as JSON; contract/json-schemas.ts has the schema that describes it (OpenAPI, MCP output schema).
import type { Trend } from '../domain/models.ts';
import type { TrendsRead } from '../domain/trends.ts';

export interface TrendsJson {
  markdown: string;
  trends: Trend[];
  ttlSeconds: number;
  source: string;
  warnings: string[];
}

export function trendsJson(read: TrendsRead, markdown: string, ttlS: number): TrendsJson {
  return { markdown, trends: read.trends, ttlSeconds: ttlS, source: read.source, warnings: read.warnings };
}
