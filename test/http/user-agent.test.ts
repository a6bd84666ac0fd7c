// Every upstream is told who is asking: a descriptive User-Agent (service, version, where to find out more),
// configurable with THREADMARK_USER_AGENT. FxTwitter rejects requests without one and may block anonymous ones.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type LocalServer } from '../unit/providers/local-server.ts';
import { startStack } from '../helpers/stack.ts';
import { VERSION } from '../../src/version.ts';

let upstream: LocalServer;
const agents: string[] = [];

before(async () => {
  upstream = await startServer((req, res) => {
    agents.push(String(req.headers['user-agent']));
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"code":500}');
  });
});
after(() => upstream.close());

async function agentsFor(env: Record<string, string>): Promise<string[]> {
  agents.length = 0;
  const s = await startStack({
    THREADMARK_FXTWITTER_URL: upstream.url,
    THREADMARK_SYNDICATION_URL: upstream.url,
    THREADMARK_PROVIDERS: 'fxtwitter,syndication',
    THREADMARK_UPSTREAM_RETRIES: '0',
    ...env,
  });
  try {
    await s.get('/alice_dev/status/1900000000000000001?thread=off');
    return [...agents];
  } finally {
    await s.close();
  }
}

test('FxTwitter and syndication get a descriptive User-Agent by default', async () => {
  const seen = await agentsFor({});
  assert.equal(seen.length, 2, 'both providers were asked');
  for (const ua of seen) assert.equal(ua, `threadmark/${VERSION} (+http://threadmark.test/docs)`);
});

test('THREADMARK_USER_AGENT replaces it', async () => {
  const seen = await agentsFor({ THREADMARK_USER_AGENT: 'example-reader/2.0 (+https://example.org; ops@example.org)' });
  assert.deepEqual(seen, [
    'example-reader/2.0 (+https://example.org; ops@example.org)',
    'example-reader/2.0 (+https://example.org; ops@example.org)',
  ]);
});
