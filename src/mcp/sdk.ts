// The MCP SDK, loaded on the first /mcp request rather than at start-up: it is the largest dependency in heap
// once loaded, and most deployments never see an MCP client.
type ServerModule = typeof import('@modelcontextprotocol/sdk/server/index.js');
type TypesModule = typeof import('@modelcontextprotocol/sdk/types.js');
type TransportModule = typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js');
type StdioModule = typeof import('@modelcontextprotocol/sdk/server/stdio.js');

export interface McpSdk {
  Server: ServerModule['Server'];
  StreamableHTTPServerTransport: TransportModule['StreamableHTTPServerTransport'];
  CallToolRequestSchema: TypesModule['CallToolRequestSchema'];
  ListToolsRequestSchema: TypesModule['ListToolsRequestSchema'];
  ListResourcesRequestSchema: TypesModule['ListResourcesRequestSchema'];
  ReadResourceRequestSchema: TypesModule['ReadResourceRequestSchema'];
  ErrorCode: TypesModule['ErrorCode'];
  McpError: TypesModule['McpError'];
}

let loading: Promise<McpSdk> | undefined;

export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]).then(([server, types, transport]) => ({
    Server: server.Server,
    StreamableHTTPServerTransport: transport.StreamableHTTPServerTransport,
    CallToolRequestSchema: types.CallToolRequestSchema,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
    ListResourcesRequestSchema: types.ListResourcesRequestSchema,
    ReadResourceRequestSchema: types.ReadResourceRequestSchema,
    ErrorCode: types.ErrorCode,
    McpError: types.McpError,
  }));
  // A failed load (a broken install) is retried by the next request rather than remembered.
  loading.catch(() => (loading = undefined));
  return loading;
}

/** The stdio transport, for `threadmark mcp` only. */
export async function loadStdioTransport(): Promise<StdioModule['StdioServerTransport']> {
  return (await import('@modelcontextprotocol/sdk/server/stdio.js')).StdioServerTransport;
}
