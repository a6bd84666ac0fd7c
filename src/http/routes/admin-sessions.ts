// GET/POST/DELETE /admin/sessions: thin routes over the X provider's session admin. Registered inside the
// admin plugin, so the admin token check (and whatever else guards admin routes) applies. Responses name a
// session by username only; cookie values go in, never out, and are never logged.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HANDLE_RE } from '../../domain/handles.ts';
import { Problem } from '../../problems/problem.ts';
import { SharedSessionsUnavailable, type SessionAdmin } from '../../providers/x/session-admin.ts';

/** X usernames: 1-15 letters, digits or underscores. */
const Username = z.string().regex(HANDLE_RE, 'must be 1-15 letters, digits or underscores');
/** Cookie values: printable, no separators a Cookie header would split on. */
const Cookie = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII')
  .refine((v) => !/[;,=\\"]/.test(v), 'must not contain ; , = \\ or "');

const NewSessionBody = z.object({ username: Username, auth_token: Cookie, ct0: Cookie }).strict();

const STORE_RETRY_AFTER_S = 5;

function notConfigured(): Problem {
  return new Problem('not_found', 'The x provider is not in THREADMARK_PROVIDERS: there are no X sessions to manage.');
}

async function shared<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof SharedSessionsUnavailable)) throw err;
    throw new Problem('key_store_unavailable', `X sessions: ${err.message}`, {
      headers: { 'Retry-After': String(STORE_RETRY_AFTER_S) },
    });
  }
}

export function registerSessionRoutes(app: FastifyInstance, sessions: SessionAdmin | undefined): void {
  app.get('/admin/sessions', async () => {
    if (!sessions) return { sessions: [], usable: {} };
    return sessions.list();
  });

  app.post('/admin/sessions', async (req, reply) => {
    const parsed = NewSessionBody.safeParse(req.body);
    if (!parsed.success) {
      // Never echo the body: it carries cookie values.
      const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      throw new Problem(
        'invalid_body',
        `Expected {"username", "auth_token", "ct0"} (the account's x.com cookies). ${detail}`,
      );
    }
    if (!sessions) throw notConfigured();
    const replaced = sessions.view(parsed.data.username) !== undefined;
    const view = await shared(() => sessions.add(parsed.data));
    return reply.code(replaced ? 200 : 201).send(view);
  });

  app.delete('/admin/sessions/:username', async (req, reply) => {
    const r = z.object({ username: Username }).safeParse(req.params);
    if (!r.success) throw new Problem('not_found', 'No X session with this username.');
    if (!sessions) throw notConfigured();
    if (!(await shared(() => sessions.remove(r.data.username))))
      throw new Problem('not_found', `No X session @${r.data.username} in rotation.`);
    return reply.code(204).send();
  });
}
