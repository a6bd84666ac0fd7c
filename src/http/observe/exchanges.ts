// The end of every exchange the hit path did not answer: one 'finish' (or 'error') listener on the response, added
// by the server's second onRequest hook, hands the finished exchange to the parts that follow it (the response
// store's recorder, the metrics, the drain, the access line), in the order they were added. Fastify's own
// onResponse hooks would do the same, but adding any, or giving Fastify a logger, makes Fastify set up its
// listeners on every response, the cache hits answered by the first hook included; hits count themselves
// (http/responses/fast-path.ts) and write no line.
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';

/** One part that follows finished exchanges: `ms` since the exchange reached the server's hooks. */
export type ExchangeEnd = (req: FastifyRequest, reply: FastifyReply, ms: number, error: Error | undefined) => void;

export class Exchanges {
  readonly #ends: ExchangeEnd[] = [];

  /** Adds a part; parts run in the order added, and one that throws is logged without stopping the others. */
  add(end: ExchangeEnd): void {
    this.#ends.push(end);
  }

  /** The onRequest hook (callback style: it runs on every request the hit path passes on). */
  readonly hook: onRequestHookHandler = (req, reply, done) => {
    const started = performance.now();
    const res = reply.raw;
    const ended = (err?: Error) => {
      res.removeListener('finish', ended);
      res.removeListener('error', ended);
      const ms = performance.now() - started;
      for (const end of this.#ends) {
        try {
          end(req, reply, ms, err);
        } catch (failure) {
          req.log.error({ err: failure }, 'exchange follower failed');
        }
      }
    };
    res.on('finish', ended);
    res.on('error', ended);
    done();
  };
}
