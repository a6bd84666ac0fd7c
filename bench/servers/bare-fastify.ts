// Child process: Fastify 5 with no hooks or plugins writing the same fixed bytes and headers as bare.ts, to
// split the service's cost into the framework's share and the application's.
import Fastify from 'fastify';

const spec = JSON.parse(process.env.BENCH_RESPONSE ?? '{}') as { body: string; headers: Record<string, string> };
const body = Buffer.from(spec.body, 'base64');
const app = Fastify({ logger: false });
app.get('/*', (_req, reply) => {
  reply.headers(spec.headers);
  reply.send(body);
});
await app.listen({ host: '127.0.0.1', port: 0 });
const addr = app.server.address();
process.send!({ url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`, pid: process.pid });
process.on('SIGTERM', () => {
  app.server.closeAllConnections();
  void app.close().finally(() => process.exit(0));
});
