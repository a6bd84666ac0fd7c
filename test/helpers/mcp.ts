// One MCP tool call against a running service, answering the text of its first content item.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function mcpCall(baseUrl: string, name: string, args: Record<string, unknown>): Promise<string> {
  const client = new Client({ name: 'threadmark-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`)));
  try {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text?: string }[] };
    assert.ok(!r.isError, r.content[0]?.text);
    return r.content[0]!.text!;
  } finally {
    await client.close();
  }
}
