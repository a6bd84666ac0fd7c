// The response store keeps only answers a fresh read would give again: a read answered from the cache while an
// ancestor failed to load is degraded by a passing failure, and must not be replayed to the next client once the
// upstream is healthy again.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, startOn, type BackendStack } from '../../helpers/backends.ts';
import { HANDLES, IDS } from '../../../sim/corpus.ts';

interface PostJson {
  post: { id: string };
  conversation: { parents: Array<{ id: string }>; earlier?: string };
  warnings: string[];
}

// Syndication holds only a post and its direct parent: every ancestor is a single-post read of its own.
const ENV = {
  THREADMARK_PROVIDERS: 'syndication',
  THREADMARK_TRUST_PROXY: 'true',
  // One failed call per read and no open circuit, so the upstream is healthy again as soon as the fault is gone.
  THREADMARK_UPSTREAM_RETRIES: '0',
  THREADMARK_BREAKER_THRESHOLD: '1000',
};
const PATH = `/${HANDLES.dave}/status/${IDS.replies.daveToCarol}?format=json&replies=off`;
const PARENTS = [IDS.threadRoot, IDS.replies.carolTop];

for (const backend of BACKENDS) {
  describe(`fast path and a degraded read (${backend.name})`, { skip: backend.skip }, () => {
    let s: BackendStack;
    before(async () => {
      s = await startOn(backend, ENV);
    });
    after(() => s.close());

    const read = async (ip: string) => {
      // Uncompressed, as only uncompressed answers are replayed.
      const res = await s.get(PATH, { headers: { 'x-forwarded-for': ip, 'accept-encoding': 'identity' } });
      assert.equal(res.status, 200);
      return { cache: res.headers.get('x-cache'), body: (await res.json()) as PostJson };
    };

    test('an answer missing an ancestor that failed is not replayed once the ancestor reads again', async () => {
      // The direct parent's own read fails (the conversation read of the post itself does not ask for it).
      s.sim.addFault({ target: 'syndication', match: IDS.replies.carolTop, kind: 'status', status: 500 });
      const first = await read('198.51.100.201');
      assert.equal(first.body.conversation.earlier, 'unavailable');
      // Answered from the cache now, the ancestor still failing: the degraded answer a replay could pin.
      const degraded = await read('198.51.100.202');
      assert.equal(degraded.cache, 'hit');
      assert.equal(degraded.body.conversation.earlier, 'unavailable');
      assert.deepEqual(degraded.body.conversation.parents, []);
      const replayedBefore = s.app.server.responseLayer?.served ?? 0;

      s.sim.clearFaults();
      const healthy = await read('198.51.100.203');
      assert.deepEqual(
        healthy.body.conversation.parents.map((p) => p.id),
        PARENTS,
        'the next client gets the whole conversation',
      );
      assert.equal(healthy.body.conversation.earlier, undefined);
      assert.ok(!healthy.body.warnings.some((w) => /earlier post/.test(w)), healthy.body.warnings.join('; '));
      assert.equal(s.app.server.responseLayer?.served ?? 0, replayedBefore, 'nothing was replayed');

      // The settled answer is remembered as before: the next identical request is a replay.
      await read('198.51.100.204');
      const again = await read('198.51.100.205');
      assert.deepEqual(
        again.body.conversation.parents.map((p) => p.id),
        PARENTS,
      );
      assert.ok((s.app.server.responseLayer?.served ?? 0) > replayedBefore, 'a settled hit is replayed');
    });
  });
}

for (const backend of BACKENDS) {
  describe(`hit replay of a fallback provider's partial answer (${backend.name})`, { skip: backend.skip }, () => {
    let s: BackendStack;
    before(async () => {
      s = await startOn(backend, { ...ENV, THREADMARK_PROVIDERS: 'fxtwitter,syndication' });
    });
    after(() => s.close());

    test('a conversation a fallback could only partly give is served from the cache but never replayed', async () => {
      const path = `/${HANDLES.dave}/status/${IDS.replies.daveToCarol}?format=json`;
      const read = async (ip: string) => {
        const res = await s.get(path, { headers: { 'x-forwarded-for': ip, 'accept-encoding': 'identity' } });
        assert.equal(res.status, 200);
        return { cache: res.headers.get('x-cache'), body: (await res.json()) as PostJson };
      };
      s.sim.addFault({ target: 'fxtwitter', match: IDS.replies.daveToCarol, kind: 'status', status: 500 });
      const first = await read('198.51.100.211');
      assert.ok(
        first.body.warnings.some((w) => /unavailable from syndication/.test(w)),
        first.body.warnings.join('; '),
      );
      const replayedBefore = s.app.server.responseLayer?.served ?? 0;
      for (const ip of ['198.51.100.212', '198.51.100.213', '198.51.100.214']) {
        const hit = await read(ip);
        assert.equal(hit.cache, 'hit');
        assert.ok(hit.body.warnings.some((w) => /unavailable from syndication/.test(w)));
      }
      assert.equal(
        s.app.server.responseLayer?.served ?? 0,
        replayedBefore,
        'an answer with upstream trouble is not replayed',
      );
    });
  });
}
