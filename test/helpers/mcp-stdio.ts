// `threadmark mcp` as a child process, connected through the official SDK's stdio client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN } from './cli-bin.ts';

/** A connected client of `threadmark mcp` run in `cwd` with only `env` (plus PATH); close it when done. */
export async function stdioMcpClient(env: Record<string, string>, cwd: string, name: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd,
    stderr: 'pipe',
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}
