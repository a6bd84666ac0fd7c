// `threadmark mcp`: the read tools over MCP on stdin/stdout. In-process by default (the same THREADMARK_*
// environment as `npm start`: embedded cache, limits and key store, no port opened); with --server URL or
// THREADMARK_SERVER every tool call is forwarded to that running service over HTTP; either way through the typed
// client (src/client/), whose fetch is Fastify's inject in-process.
import { PUBLIC_ROUTES } from '../route-table.ts';
import { serveStdio } from '../mcp/stdio.ts';
import { toolDefs } from '../surface/mcp-tools.ts';
import type { RouteFetch } from '../mcp/server.ts';
import { VERSION } from '../version.ts';
import { EXIT } from './exit.ts';
import type { CliIO } from './output.ts';
import { continueWithCursor } from './lists.ts';
import { openTransport, X_BASE } from './transport.ts';
import { Client } from './client.ts';
import { codeSpan } from '../render/markdown/escape.ts';

export interface McpFlags {
  server?: string;
  apiKey?: string;
}

export async function runMcp(
  flags: McpFlags,
  io: CliIO,
  streams = { stdin: process.stdin, stdout: process.stdout },
): Promise<number> {
  // stdout is the protocol stream: anything a library prints with console.log would corrupt it.
  console.log = console.info = console.debug = console.error;
  const transport = await openTransport(flags.server, io.env, { logTo: process.stderr });
  const apiKey = flags.apiKey ?? (io.env.THREADMARK_API_KEY || undefined);
  const client = new Client(transport, apiKey, `threadmark-mcp/${VERSION}`);
  // Problem answers are the tool's isError results, so every status is handed on as it came.
  const read: RouteFetch = (url) =>
    client.call(async (api) => {
      const res = await api.raw(url, { accept: 'application/json' });
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => (headers[k] = v));
      return { status: res.status, headers, body: await res.text() };
    });
  // In-process, links go to x.com, which has no next page of this service's: a list's Continue link becomes the
  // tool's own cursor argument (the Markdown's wording when a route builds no link).
  const fetchRoute: RouteFetch =
    transport.baseUrl === X_BASE
      ? async (url) => {
          const reply = await read(url);
          if (reply.status !== 200 || !reply.body.includes('[Continue →](')) return reply;
          let data: { markdown?: unknown };
          try {
            data = JSON.parse(reply.body) as { markdown?: unknown };
          } catch {
            return reply; // the tool answers a body that is not JSON as it always has
          }
          if (typeof data.markdown !== 'string') return reply;
          data.markdown = continueWithCursor(data.markdown, (c) => `Continue → pass cursor=${codeSpan(c)}`);
          return { ...reply, body: JSON.stringify(data) };
        }
      : read;
  try {
    await serveStdio(fetchRoute, toolDefs(PUBLIC_ROUTES), VERSION, streams);
  } finally {
    await transport.close();
  }
  return EXIT.ok;
}
