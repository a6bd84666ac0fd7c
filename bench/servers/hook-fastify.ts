// Child process: Fastify 5 answering every request from its first onRequest hook with the same fixed bytes and
// headers as bare.ts, the way the service's hit path answers (`reply.hijack()`, `writeHead`, `end`) but with no
// work of its own: the ceiling for any answer given inside Fastify's lifecycle.
import Fastify from 'fastify';
import { serveFastifyOnLoopback } from './listen.ts';

const spec = JSON.parse(process.env.BENCH_RESPONSE ?? '{}') as { body: string; headers: Record<string, string> };
const body = Buffer.from(spec.body, 'base64');
const headers = { ...spec.headers, 'content-length': String(body.length) };
const app = Fastify({ logger: false });
app.addHook('onRequest', (req, reply, _done) => {
  reply.hijack();
  reply.raw.writeHead(200, headers);
  reply.raw.end(req.method === 'HEAD' ? undefined : body);
});
// Never reached: the hook answers first. A route must exist for the router to hand the request to the hook.
app.get('/*', (_req, reply) => reply.code(500).send());
await serveFastifyOnLoopback(app);
