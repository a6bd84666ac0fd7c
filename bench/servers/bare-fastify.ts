// Child process: Fastify 5 with no hooks or plugins writing the same fixed bytes and headers as bare.ts, to
// split the service's cost into the framework's share and the application's.
import Fastify from 'fastify';
import { serveFastifyOnLoopback } from './listen.ts';

const spec = JSON.parse(process.env.BENCH_RESPONSE ?? '{}') as { body: string; headers: Record<string, string> };
const body = Buffer.from(spec.body, 'base64');
const app = Fastify({ logger: false });
app.get('/*', (_req, reply) => {
  reply.headers(spec.headers);
  reply.send(body);
});
await serveFastifyOnLoopback(app);
