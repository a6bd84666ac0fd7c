// The one response cache through the real server: sized by THREADMARK_RESPONSE_CACHE_MB (validated at start-up),
// filled by repeated reads, and reported in /metrics (entries, bytes, hits, misses).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { loadConfig, ConfigError } from '../../src/config.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const POST = `/${HANDLES.alice}/status/${IDS.threadRoot}`;

function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('response cache', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_RESPONSE_CACHE_MB: '2' });
  });
  after(() => s.close());

  test('repeated reads are answered from it, and /metrics reports entries, bytes, hits and misses', async () => {
    const before = await (await s.get('/metrics')).text();
    const hitsBefore = sample(before, 'threadmark_response_cache_lookups_total', '{result="hit"}') ?? 0;
    const bodies: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await s.get(POST);
      assert.equal(res.status, 200);
      bodies.push(await res.text());
    }
    assert.equal(new Set(bodies).size, 1, 'every read gets the same body');
    const text = await (await s.get('/metrics')).text();
    assert.ok((sample(text, 'threadmark_response_cache_entries') ?? 0) >= 1);
    const bytes = sample(text, 'threadmark_response_cache_bytes') ?? 0;
    assert.ok(bytes > 0 && bytes <= 2 * 1024 * 1024, `bytes ${bytes} within the configured 2 MB`);
    assert.ok((sample(text, 'threadmark_response_cache_lookups_total', '{result="hit"}') ?? 0) > hitsBefore);
    assert.ok((sample(text, 'threadmark_response_cache_lookups_total', '{result="miss"}') ?? 0) >= 1);
  });

  test('a JSON read of the same post is not served the Markdown rendering', async () => {
    const md = await (await s.get(POST)).text();
    const json = await s.get(`${POST}?format=json`);
    assert.match(json.headers.get('content-type') ?? '', /application\/json/);
    const body = await json.text();
    assert.notEqual(body, md);
    assert.doesNotThrow(() => JSON.parse(body));
  });
});

test('THREADMARK_RESPONSE_CACHE_MB is validated: a whole number of megabytes from 1 to 4096, 40 by default', () => {
  assert.equal(loadConfig({}).responseCacheBytes, 40 * 1024 * 1024);
  assert.equal(loadConfig({ THREADMARK_RESPONSE_CACHE_MB: '8' }).responseCacheBytes, 8 * 1024 * 1024);
  for (const bad of ['0', '-1', '1.5', 'lots', '5000']) {
    assert.throws(
      () => loadConfig({ THREADMARK_RESPONSE_CACHE_MB: bad }),
      (e) => e instanceof ConfigError && /THREADMARK_RESPONSE_CACHE_MB/.test(e.message),
    );
  }
});
