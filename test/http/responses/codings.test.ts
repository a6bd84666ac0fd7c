// Every coding a client may ask for, through the real server: a stored representation is answered from the hit path
// in identity, gzip and br, each with its own strong tag (RFC 9110 §8.8.3), the Vary and Content-Length of what
// goes out, bytes that are the normal path's bytes for the same tag, a 304 for the tag of each, and HEAD with the
// headers of the GET it stands for. The coded bytes are made once and counted in the response cache's budget.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { BACKENDS, startOn, type BackendStack } from '../../helpers/backends.ts';
import { rawRequest, type RawResponse } from '../../helpers/raw-http.ts';
import { HANDLES, IDS } from '../../../sim/corpus.ts';

const TRUSTED = { THREADMARK_TRUST_PROXY: 'true' };
const redisBackend = BACKENDS.find((b) => b.name === 'redis')!;
const served = (s: Stack) => s.app.server.responseLayer?.served ?? Number.NaN;
/** Over the compression threshold (a 12-post thread). */
const THREAD = `/${HANDLES.alice}/status/${IDS.threadRoot}?replies=off&full=true`;
/** Under it (one post). */
const SINGLE = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`;

let seq = 0;
const nextIp = () => `198.51.100.${++seq % 250}`;

function get(s: Stack, target: string, headers: [string, string][] = [], method = 'GET'): Promise<RawResponse> {
  return rawRequest(Number(new URL(s.url).port), {
    method,
    target,
    headers: [['X-Forwarded-For', nextIp()], ...headers],
  });
}

/** Reads `target` until the normal path has stored it (a miss, then a hit it records). */
async function stored(s: Stack, target: string): Promise<RawResponse> {
  for (let i = 0; i < 4; i++) {
    const was = served(s);
    const r = await get(s, target);
    if (served(s) === was + 1) return r;
  }
  throw new Error(`${target} was never answered from the store`);
}

const decode: Record<string, (b: Buffer) => Buffer> = {
  gzip: gunzipSync,
  br: brotliDecompressSync,
  identity: (b) => b,
};

const ASKS: Array<{ coding: 'identity' | 'gzip' | 'br'; accept: string | undefined }> = [
  { coding: 'identity', accept: undefined },
  { coding: 'identity', accept: 'identity' },
  { coding: 'identity', accept: 'deflate' },
  { coding: 'gzip', accept: 'gzip, deflate' },
  { coding: 'gzip', accept: 'br;q=0.5, gzip' },
  { coding: 'br', accept: 'gzip, deflate, br' },
  { coding: 'br', accept: 'br' },
];

describe('codings of stored answers', () => {
  let s: Stack;
  let identity: RawResponse;
  before(async () => {
    s = await startStack(TRUSTED);
    identity = await stored(s, THREAD);
  });
  after(() => s.close());

  for (const ask of ASKS) {
    test(`Accept-Encoding ${ask.accept ?? '(none)'}: ${ask.coding} from the store, with its own tag and length`, async () => {
      const headers: [string, string][] = ask.accept === undefined ? [] : [['Accept-Encoding', ask.accept]];
      await get(s, THREAD, headers);
      const before = served(s);
      const r = await get(s, THREAD, headers);
      assert.equal(served(s), before + 1, 'answered by the hit path');
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-encoding'], ask.coding === 'identity' ? undefined : ask.coding);
      assert.equal(r.headers['content-length'], String(r.body.length));
      assert.ok(decode[ask.coding]!(r.body).equals(identity.body), 'the same representation');
      const tag = identity.headers.etag!;
      assert.equal(r.headers.etag, ask.coding === 'identity' ? tag : `${tag.slice(0, -1)}-${ask.coding}"`);
      assert.match(r.headers.vary ?? '', /(^|, )Accept-Encoding(,|$)/);
      assert.equal(r.headers.vary, identity.headers.vary);
      assert.equal(r.headers['x-cache'], 'hit');
      assert.match(r.headers['ratelimit-remaining'] ?? '', /^\d+$/);
    });
  }

  test('a coded body is made once: every later answer is the same bytes, counted in the budget', async () => {
    const asks: [string, string][] = [['Accept-Encoding', 'gzip']];
    const first = await get(s, THREAD, asks);
    const bytes = s.app.services.responses.stats().bytes;
    const again = await get(s, THREAD, asks);
    assert.ok(again.body.equals(first.body));
    assert.equal(s.app.services.responses.stats().bytes, bytes, 'nothing new stored');
  });

  test('the hit path writes the bytes the normal path writes for the same tag', async () => {
    const plain = await startStack(TRUSTED, { fastPath: false });
    try {
      for (const coding of ['gzip', 'br']) {
        const fromStore = await get(s, THREAD, [['Accept-Encoding', coding]]);
        const normal = await get(plain, THREAD, [['Accept-Encoding', coding]]);
        assert.equal(normal.headers.etag, fromStore.headers.etag, coding);
        assert.ok(normal.body.equals(fromStore.body), `${coding}: one tag, one byte sequence`);
        assert.equal(normal.headers['content-length'], fromStore.headers['content-length'], coding);
      }
    } finally {
      await plain.close();
    }
  });

  test("the store's budget grows by the coded bytes when a coding is first asked for", async () => {
    const target = `${THREAD}&t40=1`;
    await stored(s, target);
    const bytes = s.app.services.responses.stats().bytes;
    const before = served(s);
    const br = await get(s, target, [['Accept-Encoding', 'br']]);
    assert.equal(served(s), before + 1, 'answered by the hit path once made');
    assert.ok(s.app.services.responses.stats().bytes >= bytes + br.body.length);
  });

  for (const coding of ['identity', 'gzip', 'br'] as const) {
    test(`If-None-Match with the ${coding} tag: 304 with that tag`, async () => {
      const accept: [string, string][] = coding === 'identity' ? [] : [['Accept-Encoding', coding]];
      const ok = await get(s, THREAD, accept);
      const tag = ok.headers.etag!;
      const r = await get(s, THREAD, [...accept, ['If-None-Match', tag]]);
      assert.equal(r.status, 304);
      assert.equal(r.headers.etag, tag);
      assert.equal(r.headers['content-encoding'], undefined);
      assert.equal(r.body.length, 0);
      assert.equal(r.headers.vary, identity.headers.vary);
    });
  }

  for (const coding of ['identity', 'gzip', 'br'] as const) {
    test(`HEAD in ${coding}: the headers of the GET, no body`, async () => {
      const accept: [string, string][] = coding === 'identity' ? [] : [['Accept-Encoding', coding]];
      const target = `${THREAD}&t40=2`;
      for (let i = 0; i < 3; i++) await get(s, target, accept, 'HEAD');
      const getAnswer = await get(s, target, accept);
      const before = served(s);
      const head = await get(s, target, accept, 'HEAD');
      assert.equal(served(s), before + 1, 'answered by the hit path');
      assert.equal(head.status, 200);
      for (const name of ['content-encoding', 'content-length', 'etag', 'vary', 'content-type'])
        assert.equal(head.headers[name], getAnswer.headers[name], name);
      assert.equal(head.body.length, 0);
    });
  }

  test('X-No-Compression: identity from the store', async () => {
    const before = served(s);
    const r = await get(s, THREAD, [
      ['Accept-Encoding', 'gzip, br'],
      ['X-No-Compression', '1'],
    ]);
    assert.equal(served(s), before + 1);
    assert.equal(r.headers['content-encoding'], undefined);
    assert.equal(r.headers.etag, identity.headers.etag);
    assert.ok(r.body.equals(identity.body));
  });

  test('a body under the threshold is identity whatever is accepted, and does not vary on Accept-Encoding', async () => {
    const plain = await stored(s, SINGLE);
    for (const accept of ['gzip', 'br', 'gzip, deflate, br']) {
      const before = served(s);
      const r = await get(s, SINGLE, [['Accept-Encoding', accept]]);
      assert.equal(served(s), before + 1, accept);
      assert.equal(r.headers['content-encoding'], undefined, accept);
      assert.equal(r.headers.etag, plain.headers.etag, accept);
      assert.doesNotMatch(r.headers.vary ?? '', /accept-encoding/i, accept);
      assert.ok(r.body.equals(plain.body), accept);
    }
  });
});

describe('codings of stored answers on the Redis backend', { skip: redisBackend.skip }, () => {
  let a: BackendStack;
  before(async () => {
    a = await startOn(redisBackend, TRUSTED);
  });
  after(() => a?.close());

  test('gzip and br hits are answered from the store after the one round trip', async () => {
    const identity = await stored(a, THREAD);
    for (const coding of ['gzip', 'br'] as const) {
      await get(a, THREAD, [['Accept-Encoding', coding]]);
      const before = served(a);
      const r = await get(a, THREAD, [['Accept-Encoding', coding]]);
      assert.equal(served(a), before + 1, coding);
      assert.equal(r.headers['content-encoding'], coding);
      assert.ok(decode[coding]!(r.body).equals(identity.body), coding);
    }
  });
});
