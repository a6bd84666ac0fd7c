// One MCP server per request (stateless Streamable HTTP). Each tool call is served by the REST route it was
// generated from, through Fastify's in-process inject: same validation, key handling, rate limits and cache.
import type { FastifyInstance } from 'fastify';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadMcpSdk, type McpSdk } from './sdk.ts';
import { SERVICE_NAME } from '../surface/service-info.ts';
import { toolRequestUrl, type ToolDef } from '../surface/mcp-tools.ts';

export interface CallerContext {
  /** The caller's Authorization header, forwarded so a bearer key is honoured exactly as on REST. */
  authorization?: string;
  /** The caller's address as the service resolved it, so rate limits charge the caller, not loopback. */
  ip: string;
}

const INSTRUCTIONS =
  'Read-only access to public X posts, threads, profiles, follower lists and search. Every tool returns Markdown; ' +
  'errors come back as isError results carrying the service\'s problem JSON (code, detail, resolution). ' +
  'For list tools, pass the returned nextCursor back as `cursor` to get the next page.';

async function invoke(
  sdk: McpSdk,
  app: FastifyInstance,
  tool: ToolDef,
  args: Record<string, unknown>,
  caller: CallerContext,
): Promise<CallToolResult> {
  let url: string;
  try {
    url = toolRequestUrl(tool, args);
  } catch (err) {
    throw new sdk.McpError(sdk.ErrorCode.InvalidParams, `${tool.name}: ${(err as Error).message}`);
  }
  const res = await app.inject({
    method: 'GET',
    url,
    remoteAddress: caller.ip,
    headers: { accept: 'text/markdown', ...(caller.authorization ? { authorization: caller.authorization } : {}) },
  });
  if (res.statusCode >= 200 && res.statusCode < 300) return { content: [{ type: 'text', text: res.body }] };
  let text = res.body;
  const retryAfter = res.headers['retry-after'];
  if (retryAfter !== undefined) {
    try {
      text = JSON.stringify({ ...JSON.parse(res.body), retry_after: Number(retryAfter) });
    } catch {
      // A Markdown recovery document (404 on list routes) is passed through as it is.
    }
  }
  return { isError: true, content: [{ type: 'text', text }] };
}

export async function createMcpServer(app: FastifyInstance, tools: ToolDef[], version: string, caller: CallerContext): Promise<Server> {
  const sdk = await loadMcpSdk();
  const { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } = sdk;
  // The low-level Server (not McpServer) because the tool schemas are already JSON Schema generated from the route
  // declarations, and argument validation belongs to the REST route that serves the call.
  const server = new sdk.Server({ name: SERVICE_NAME, version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: { title: t.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = byName.get(req.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${req.params.name}; call tools/list.`);
    return invoke(sdk, app, tool, (req.params.arguments ?? {}) as Record<string, unknown>, caller);
  });
  return server;
}
