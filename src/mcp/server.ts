// The MCP server, one per connection: tools and resources generated from the route table, each served by the REST
// route it stands for through a RouteFetch (Fastify's in-process inject for /mcp and in-process stdio, HTTP when
// `threadmark mcp --server` forwards to a running service): same validation, keys, limits and cache everywhere.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { loadMcpSdk, type McpSdk } from './sdk.ts';
import { SERVICE_NAME } from '../surface/service-info.ts';
import { TOOL_ANNOTATIONS, toolRequestUrl, type ToolDef } from '../surface/mcp-tools.ts';
import { RESOURCES } from './resources.ts';

export interface RouteReply {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** GET a path (with its query) of the service, as JSON where the route offers it. */
export type RouteFetch = (pathWithQuery: string) => Promise<RouteReply>;

const INSTRUCTIONS =
  'Read-only access to public X posts, threads, translations, quotes and reposts, profiles and their tabs, ' +
  'follower lists, search, hashtags, cashtags, trends and X Lists. Every tool returns the ' +
  'Markdown as text and the same read as structured data (without the Markdown) in structuredContent; errors come back as isError results carrying the ' +
  "service's problem JSON (code, detail, resolution). For list tools, pass the returned nextCursor back as `cursor` " +
  'to get the next page. Resources: the agent guide (llms.txt) and the OpenAPI description.';

function failure(reply: RouteReply): CallToolResult {
  let text = reply.body;
  const retryAfter = reply.headers['retry-after'];
  try {
    const problem = JSON.parse(reply.body) as Record<string, unknown>;
    if (retryAfter !== undefined) problem.retry_after = Number(retryAfter);
    text = JSON.stringify(problem);
  } catch {
    // Not a problem document (a proxy's error page, say): passed through as it is.
  }
  return { isError: true, content: [{ type: 'text', text }] };
}

async function invoke(
  sdk: McpSdk,
  fetchRoute: RouteFetch,
  tool: ToolDef,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  let url: string;
  try {
    url = toolRequestUrl(tool, args);
  } catch (err) {
    throw new sdk.McpError(sdk.ErrorCode.InvalidParams, `${tool.name}: ${(err as Error).message}`);
  }
  const reply = await fetchRoute(url);
  if (reply.status < 200 || reply.status > 299) return failure(reply);
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(reply.body) as Record<string, unknown>;
  } catch {
    throw new sdk.McpError(
      sdk.ErrorCode.InternalError,
      `${tool.name}: the service answered ${reply.status} without a JSON body.`,
    );
  }
  // The Markdown goes once, as the text; repeating it in structuredContent doubled what an agent pays for a read.
  const { markdown, ...structured } = data;
  return {
    content: [{ type: 'text', text: typeof markdown === 'string' ? markdown : '' }],
    structuredContent: structured,
  };
}

export async function createMcpServer(fetchRoute: RouteFetch, tools: ToolDef[], version: string): Promise<Server> {
  const sdk = await loadMcpSdk();
  const {
    CallToolRequestSchema,
    ErrorCode,
    ListResourcesRequestSchema,
    ListToolsRequestSchema,
    McpError,
    ReadResourceRequestSchema,
  } = sdk;
  // The low-level Server (not McpServer) because the tool schemas are already JSON Schema generated from the route
  // declarations, and argument validation belongs to the REST route that serves the call.
  const server = new sdk.Server(
    { name: SERVICE_NAME, version },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema,
      annotations: { title: t.title, ...TOOL_ANNOTATIONS },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = byName.get(req.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${req.params.name}; call tools/list.`);
    return invoke(sdk, fetchRoute, tool, req.params.arguments ?? {});
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: RESOURCES.map(({ path: _path, ...r }) => r),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req): Promise<ReadResourceResult> => {
    const resource = RESOURCES.find((r) => r.uri === req.params.uri);
    if (!resource)
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${req.params.uri}; call resources/list.`);
    const reply = await fetchRoute(resource.path);
    if (reply.status !== 200)
      throw new McpError(ErrorCode.InternalError, `${resource.uri}: the service answered ${reply.status}.`);
    return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: reply.body }] };
  });
  return server;
}
