// `threadmark mcp`: the MCP server over stdio, for agents that launch local servers (desktop and editor agents).
// stdout carries protocol messages only; everything else (logs, start-up failures) goes to stderr.
import { loadStdioTransport } from './sdk.ts';
import { createMcpServer, type RouteFetch } from './server.ts';
import type { ToolDef } from '../surface/mcp-tools.ts';

export interface StdioStreams {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
}

/** Serves until the client closes stdin (or the transport fails); resolves once the server is closed. */
export async function serveStdio(
  fetchRoute: RouteFetch,
  tools: ToolDef[],
  version: string,
  streams: StdioStreams,
): Promise<void> {
  const StdioServerTransport = await loadStdioTransport();
  const server = await createMcpServer(fetchRoute, tools, version);
  const transport = new StdioServerTransport(streams.stdin as NodeJS.ReadStream, streams.stdout as NodeJS.WriteStream);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  // The SDK transport does not watch for the end of its input; a client that goes away ends the session.
  const end = () => void server.close();
  streams.stdin.once('end', end);
  streams.stdin.once('close', end);
  await closed;
}
