// The trends read as JSON, and the schema that describes it (OpenAPI, MCP output schema).
import { z } from 'zod';
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

const trend = z
  .looseObject({
    name: z.string().describe('What trends: a hashtag (#tag), a cashtag ($TAG) or words.'),
    rank: z.number().int().optional().describe("Position in the upstream's list, 1 first."),
    context: z.string().optional().describe('What the upstream says about it, e.g. "Technology · Trending".'),
    posts: z
      .number()
      .int()
      .optional()
      .describe(
        'Posts about it as the upstream counts them (X rounds large counts); absent when it gives no count (FxTwitter never does, X not for every trend).',
      ),
    related: z.array(z.string()).optional().describe('Topics grouped under it.'),
    url: z
      .string()
      .optional()
      .describe("X's page of an AI-written story trend (https://x.com/i/trending/<id>); its name is a headline."),
  })
  .describe('A trending topic.');

export const trendsJsonSchema = z.looseObject({
  markdown: z.string().describe('The Markdown representation of the same read.'),
  trends: z.array(trend).describe("X's current trends, in the upstream's order."),
  ttlSeconds: z.number().int().describe('How long this list is kept before it is read again.'),
  source: z.string().describe('Provider that answered.'),
  warnings: z.array(z.string()).describe('What was degraded (also in X-Warnings).'),
});
