// The bench servers' common end: listen on a loopback port, report it to the harness over IPC, close on SIGTERM.
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';

export function serveOnLoopback(server: Server): void {
  server.listen(0, '127.0.0.1', () => {
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    process.send!({ url: `http://127.0.0.1:${port}`, pid: process.pid });
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

/** The same for a Fastify server. */
export async function serveFastifyOnLoopback(app: FastifyInstance): Promise<void> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  process.send!({ url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`, pid: process.pid });
  process.on('SIGTERM', () => {
    app.server.closeAllConnections();
    void app.close().finally(() => process.exit(0));
  });
}
