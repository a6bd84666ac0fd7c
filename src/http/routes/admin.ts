import { createHash, timingSafeEqual } from 'node:crypto';
import { parseEveryBodyAsJson } from '../routing/json-body.ts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Problem } from '../../problems/problem.ts';
import type { KeyStore } from '../../stores/keys/types.ts';
import { Limiter } from '../../stores/limits/limiter.ts';
import { ADMIN_FAILURES } from '../../stores/limits/policies.ts';
import { clientKey } from '../../stores/limits/client-key.ts';
import { clientAddress } from '../guards/client-address.ts';
import type { SessionAdmin } from '../../providers/x/session-admin.ts';
import { registerSessionRoutes } from './admin-sessions.ts';

export interface AdminRoutesOptions {
  /** THREADMARK_ADMIN_TOKEN; unset = every admin route answers 503 admin_unconfigured. */
  token?: string;
  keys: KeyStore;
  /** Counts wrong tokens per client address (ADMIN_FAILURES); the service's own, shared by its instances. */
  limiter?: Limiter;
  /** The X provider's session admin; undefined when x is not a configured provider. */
  sessions?: SessionAdmin;
}

const NewKeyBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    accountQuota: z.number().int().positive().optional(),
  })
  .strict();

const IdParams = z.object({ id: z.string().min(1).max(64) });

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

/** The bearer token a request presents, if any. */
function presentedBearer(req: FastifyRequest): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** Digests first so the comparison is constant-time whatever the lengths. */
function bearerMatches(presented: string, token: string): boolean {
  return timingSafeEqual(digest(presented), digest(token));
}

const seenAs = (who: string) => `This request counts for ${who}.`;

/** How the lockout is keyed, told in every 401 so an operator locked out by a neighbour knows why. */
const LOCKOUT_RULE = `Only a presented, wrong bearer token counts: ${ADMIN_FAILURES.quota} within ${ADMIN_FAILURES.windowS / 60} minutes lock the client address out (IPv4: the address; IPv6: its /64 network; behind a proxy, the address THREADMARK_TRUST_PROXY lets the service see, else the proxy's own) for the rest of the window, right token included.`;

function parseId(params: unknown): string {
  const r = IdParams.safeParse(params);
  if (!r.success) throw new Problem('not_found', 'No API key with this id.');
  return r.data.id;
}

function notFound(id: string): Problem {
  return new Problem('not_found', `No API key with id ${id}.`);
}

/** Seconds an operator is asked to wait when the key store does not answer. */
const STORE_RETRY_AFTER_S = 5;

/**
 * The store failing (Redis down, SQLite closed) is not a bug of ours: operators get a 503 they can retry,
 * while public reads carry on with `X-Api-Key-Status: unverified`.
 */
function answering(keys: KeyStore): KeyStore {
  const wrap =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch (err) {
        if (err instanceof Problem) throw err;
        throw new Problem('key_store_unavailable', `The key store did not answer: ${(err as Error).message}`, {
          headers: { 'Retry-After': String(STORE_RETRY_AFTER_S) },
        });
      }
    };
  return {
    create: wrap((input) => keys.create(input)),
    list: wrap(() => keys.list()),
    disable: wrap((id) => keys.disable(id)),
    enable: wrap((id) => keys.enable(id)),
    delete: wrap((id) => keys.delete(id)),
    verify: wrap((key) => keys.verify(key)),
    close: () => keys.close(),
  };
}

/**
 * Private operator routes (architecture.md, Operator surface). Authentication runs on `onRequest`,
 * before the body is read, so callers without the token learn nothing about body validation.
 */
export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, opts) => {
  const { token } = opts;
  const keys = answering(opts.keys);
  const limiter = opts.limiter ?? new Limiter();

  app.addHook('onRequest', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (!token) throw new Problem('admin_unconfigured', 'Set THREADMARK_ADMIN_TOKEN to enable the admin routes.');
    // Guessing is bounded per address: once ADMIN_FAILURES wrong tokens are used up, even the right one waits.
    const who = clientKey(clientAddress(req));
    const failures = await limiter.peek(ADMIN_FAILURES, who);
    if (failures.remaining <= 0) {
      throw new Problem(
        'rate_limited',
        `Too many wrong admin tokens from this address; retry in ${failures.resetS} s. ${LOCKOUT_RULE} ${seenAs(who)}`,
        {
          headers: { 'Retry-After': String(failures.resetS) },
        },
      );
    }
    const presented = presentedBearer(req);
    if (presented === undefined) {
      // Nothing was guessed: counting bare requests would let anyone sharing the address lock the operator out.
      throw new Problem('unauthorized', `A valid admin bearer token is required. ${LOCKOUT_RULE} ${seenAs(who)}`);
    }
    if (!bearerMatches(presented, token)) {
      await limiter.consume(ADMIN_FAILURES, who);
      throw new Problem('unauthorized', `The admin bearer token is wrong. ${LOCKOUT_RULE} ${seenAs(who)}`);
    }
  });

  parseEveryBodyAsJson(app);

  app.post('/admin/keys', async (req, reply) => {
    const parsed = NewKeyBody.safeParse(req.body);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      throw new Problem('invalid_body', `Expected {"name": string, "accountQuota"?: positive integer}. ${detail}`);
    }
    const issued = await keys.create(parsed.data);
    return reply.code(201).send(issued);
  });

  app.get('/admin/keys', async () => ({ keys: await keys.list() }));

  registerSessionRoutes(app, opts.sessions);

  app.post('/admin/keys/:id/disable', async (req) => {
    const id = parseId(req.params);
    const record = await keys.disable(id);
    if (!record) throw notFound(id);
    return record;
  });

  app.post('/admin/keys/:id/enable', async (req) => {
    const id = parseId(req.params);
    const record = await keys.enable(id);
    if (!record) throw notFound(id);
    return record;
  });

  app.delete('/admin/keys/:id', async (req, reply) => {
    const id = parseId(req.params);
    if (!(await keys.delete(id))) throw notFound(id);
    return reply.code(204).send();
  });
};
