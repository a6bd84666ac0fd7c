// Transport behaviour of the X GraphQL client against a loopback server.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { ProviderError } from '../../../../src/providers/types.ts';
import { WEB_BEARER, XGraphqlClient } from '../../../../src/providers/x/client.ts';
import { createXProvider } from '../../../../src/providers/x/setup.ts';
import { parseSessionLines, SessionPool } from '../../../../src/providers/x/sessions.ts';
import { json, startServer, type LocalServer } from '../local-server.ts';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SESSIONS =
  '{"username":"a","auth_token":"tokA","ct0":"csrfA"}\n{"username":"b","auth_token":"tokB","ct0":"csrfB"}';

function client(url: string, lines = SESSIONS) {
  const pool = new SessionPool(parseSessionLines(lines).sessions);
  return { pool, c: new XGraphqlClient({ apiUrl: `${url}/i/api`, pool, timeoutMs: 2000 }) };
}

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ProviderError);
    return err;
  }
  assert.fail('expected a ProviderError');
}

describe('x GraphQL client', () => {
  it('sends the web session headers and cookies to /graphql/<queryId>/<Operation>', async () => {
    let seen: Record<string, string | string[] | undefined> = {};
    server = await startServer((req, res) => {
      seen = req.headers;
      json(
        res,
        200,
        { data: { user: {} } },
        { 'x-rate-limit-remaining': '10', 'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + 60) },
      );
    });
    const { c } = client(server.url);
    const body = await c.call('UserByScreenName', { screen_name: 'bob' });
    assert.deepEqual(body, { data: { user: {} } });
    assert.match(server.requests[0]!, /^\/i\/api\/graphql\/Gb-d6r0vxPOADdG62OEBpQ\/UserByScreenName\?variables=/);
    assert.equal(seen.authorization, `Bearer ${WEB_BEARER}`);
    assert.equal(seen['x-csrf-token'], 'csrfA');
    assert.equal(seen.cookie, 'auth_token=tokA; ct0=csrfA');
    assert.equal(seen['x-twitter-auth-type'], 'OAuth2Session');
    assert.equal(seen['x-twitter-active-user'], 'yes');
    assert.equal(seen['x-twitter-client-language'], 'en');
    assert.equal(seen.origin, 'https://x.com');
    assert.match(String(seen['user-agent']), /Mozilla/);
  });

  it('reads 404 with a body, 400 without a known code and error 336 as a stale table: one call, no session parked', async () => {
    const answers: Array<[number, unknown]> = [
      [404, { errors: [{ message: 'Query: Unspecified' }] }],
      [400, { errors: [{ message: 'bad request' }] }],
      [200, { errors: [{ code: 336, message: 'The following features cannot be null: x' }] }],
    ];
    for (const [status, body] of answers) {
      server = await startServer((_req, res) => json(res, status, body));
      const { c, pool } = client(server.url);
      const err = await failure(c.call('TweetDetail', { focalTweetId: '1' }));
      assert.equal(err.kind, 'error');
      assert.match(err.message, /out of date.*refresh THREADMARK_X_OPERATIONS or set THREADMARK_X_DISCOVER=true/);
      assert.equal(server.requests.length, 1, 'a stale id fails for every session alike');
      assert.deepEqual(
        pool.status().map((x) => x.state),
        ['ok', 'ok'],
      );
      assert.equal(c.stats.get('TweetDetail').stale, 1);
      await server.close();
      server = undefined;
    }
  });

  it('retries a transient empty 404 with the next session, then reports an error', async () => {
    let n = 0;
    server = await startServer((_req, res) => {
      n++;
      res.writeHead(404).end();
    });
    const { c } = client(server.url);
    const err = await failure(c.call('TweetDetail', { focalTweetId: '1' }));
    assert.equal(err.kind, 'error');
    assert.equal(n, 2);
  });

  it('maps 5xx, HTML blocks and malformed JSON to error without touching session health', async () => {
    const answers: [number, string][] = [
      [503, '{"errors":[{"message":"Over capacity"}]}'],
      [403, '<html>blocked</html>'],
      [200, '{"data":'],
    ];
    server = await startServer((_req, res) => {
      const [status, body] = answers.shift()!;
      res.writeHead(status, { 'content-type': status === 200 ? 'application/json' : 'text/html' }).end(body);
    });
    const { c, pool } = client(server.url);
    const e1 = await failure(c.call('TweetDetail', { focalTweetId: '1' }));
    assert.deepEqual([e1.kind, e1.opts.status], ['error', 503]);
    const e2 = await failure(c.call('TweetDetail', { focalTweetId: '1' }));
    assert.equal(e2.kind, 'error');
    assert.match(e2.message, /HTML page \(HTTP 403\)/);
    const e3 = await failure(c.call('TweetDetail', { focalTweetId: '1' }));
    assert.equal(e3.kind, 'error');
    assert.match(e3.message, /malformed JSON/);
    assert.deepEqual(
      pool.status().map((x) => x.state),
      ['ok', 'ok'],
    );
  });

  it('marks a session refused with a bare 403 locked and serves the read from the next one', async () => {
    server = await startServer((req, res) => {
      if (String(req.headers.cookie).includes('tokA')) return json(res, 403, { errors: [{ message: 'Forbidden.' }] });
      json(res, 200, { data: { user: {} } });
    });
    const { c, pool } = client(server.url);
    assert.deepEqual(await c.call('Followers', { userId: '1' }), { data: { user: {} } });
    assert.deepEqual(
      pool.status().map((x) => [x.state, x.deadReason]),
      [
        ['locked', 'refused with HTTP 403'],
        ['ok', undefined],
      ],
    );
    assert.equal(server.requests.length, 2);
  });

  it('parks on code 88 in a 200 body and on remaining 0, and rotates', async () => {
    const tokens: string[] = [];
    server = await startServer((req, res) => {
      const token = /auth_token=(\w+)/.exec(String(req.headers.cookie))![1]!;
      tokens.push(token);
      if (token === 'tokA') return json(res, 200, { errors: [{ code: 88, message: 'Rate limit exceeded' }] });
      json(
        res,
        200,
        { data: {} },
        { 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + 300) },
      );
    });
    const { c, pool } = client(server.url);
    await c.call('SearchTimeline', { rawQuery: 'x' });
    assert.deepEqual(tokens, ['tokA', 'tokB']);
    const err = await failure(c.call('SearchTimeline', { rawQuery: 'x' }));
    assert.equal(err.kind, 'unavailable');
    assert.ok(err.opts.retryAfterS! > 250 && err.opts.retryAfterS! <= 300);
    assert.equal(tokens.length, 2);
    assert.ok(pool.isAvailable('TweetDetail'));
  });
});

describe('createXProvider', () => {
  it('loads the sessions file named by the configuration', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-x-'));
    const path = join(dir, 'sessions.jsonl');
    writeFileSync(path, `${SESSIONS}\n{"oauth_token":"1-a","oauth_token_secret":"b"}\n`);
    const setup = createXProvider({
      xApiUrl: 'http://127.0.0.1:9/i/api',
      xSessionsPath: path,
      upstreamTimeoutMs: 1000,
    });
    assert.deepEqual(setup.sessions, ['a', 'b']);
    assert.equal(setup.skipped, 1);
    assert.ok(setup.provider.capabilities().has('search:users'));
    assert.equal(createXProvider({ xApiUrl: 'http://h', upstreamTimeoutMs: 1000 }).provider.capabilities().size, 0);
    assert.throws(
      () => createXProvider({ xApiUrl: 'http://h', xSessionsPath: join(dir, 'nope'), upstreamTimeoutMs: 1000 }),
      /THREADMARK_X_SESSIONS/,
    );
  });
});
