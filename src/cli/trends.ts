// `threadmark trends`: X's current trends, as Markdown, JSON or HTML.
import type { Client } from './client.ts';
import { writeDocument, type CliIO } from './output.ts';

export const TRENDS_FORMATS = ['markdown', 'json', 'html'] as const;

export interface TrendsFlags {
  format: (typeof TRENDS_FORMATS)[number];
  nocache?: boolean;
}

export async function runTrends(client: Client, flags: TrendsFlags, io: CliIO): Promise<number> {
  const query = { nocache: flags.nocache ? 'true' : undefined };
  const body =
    flags.format === 'html'
      ? await client.text('/api/v1/trends', query, 'text/html')
      : await client.text('/api/v1/trends', { ...query, format: flags.format });
  writeDocument(io.stdout, body);
  return 0;
}
