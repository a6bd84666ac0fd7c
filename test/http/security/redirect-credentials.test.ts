// X session cookies never follow a redirect to another origin or down to plain http.
// A loopback "X" answers every GraphQL call with a 302 to a second local host, which records what it was sent.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { fetchUpstream } from '../../../src/providers/http.ts';

const dir = mkdtempSync(join(tmpdir(), 'tm-redirect-'));
const SESSIONS = join(dir, 'sessions.jsonl');
writeFileSync(
  SESSIONS,
  JSON.stringify({ username: 'victim', auth_token: 'SECRET_AUTH_TOKEN', ct0: 'SECRET_CT0' }) + '\n',
);

const seen: IncomingHttpHeaders[] = [];
let recorder: Server;
let redirector: Server;
let recorderUrl = '';
let redirectorUrl = '';

function listen(server: Server, host: string): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, host, () => resolve(`http://${host}:${(server.address() as { port: number }).port}`)),
  );
}

before(async () => {
  recorder = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}');
  });
  // A second local host: another loopback address, so another origin even apart from the port.
  recorderUrl = await listen(recorder, '127.0.0.2');
  redirector = createServer((req, res) => {
    const same = req.url?.includes('same-origin=1');
    if (same && req.url?.includes('hop=2')) {
      seen.push(req.headers);
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    }
    const target = same ? `${redirectorUrl}${req.url}&hop=2` : `${recorderUrl}/collect${req.url}`;
    res.writeHead(302, { location: target }).end();
  });
  redirectorUrl = await listen(redirector, '127.0.0.1');
});
after(async () => {
  await new Promise((r) => recorder.close(r));
  await new Promise((r) => redirector.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const SECRETS = /SECRET_AUTH_TOKEN|SECRET_CT0|Bearer/;

describe('redirects and credentials', () => {
  test('an X endpoint redirecting to another host does not receive the session cookies, through the real server', async () => {
    let s: Stack | undefined;
    try {
      s = await startStack({
        THREADMARK_PROVIDERS: 'x,fxtwitter',
        THREADMARK_X_SESSIONS: SESSIONS,
        THREADMARK_X_API_URL: `${redirectorUrl}/i/api`,
      });
      seen.length = 0;
      const res = await s.get('/api/v1/search?q=threadmark&feed=users');
      await res.arrayBuffer();
      assert.ok(seen.length > 0, 'the redirect was followed to the second host');
      for (const h of seen) {
        assert.equal(h.cookie, undefined);
        assert.equal(h.authorization, undefined);
        assert.equal(h['x-csrf-token'], undefined);
        assert.doesNotMatch(JSON.stringify(h), SECRETS);
      }
    } finally {
      await s?.close();
    }
  });

  test('the upstream client drops credentials on a cross-origin hop, keeps them on a same-origin one', async () => {
    const headers = {
      cookie: 'auth_token=SECRET_AUTH_TOKEN',
      authorization: 'Bearer x',
      'x-csrf-token': 'SECRET_CT0',
      'x-keep': 'yes',
    };
    seen.length = 0;
    await fetchUpstream('x', `${redirectorUrl}/cross`, { timeoutMs: 2000, headers });
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.cookie, undefined);
    assert.equal(seen[0]!.authorization, undefined);
    assert.equal(seen[0]!['x-csrf-token'], undefined);
    assert.equal(seen[0]!['x-keep'], 'yes', 'other headers still travel');
    seen.length = 0;
    await fetchUpstream('x', `${redirectorUrl}/same?same-origin=1`, { timeoutMs: 2000, headers });
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.cookie, headers.cookie, 'a same-origin hop keeps the session');
    assert.equal(seen[0]!['x-csrf-token'], 'SECRET_CT0');
  });
});
