// x-client-transaction-id: our implementation against known answers of an independent implementation
// (test/fixtures/x/README.md), and reading its inputs out of X's web app as the simulator serves it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import {
  animationKey,
  cubicBezier,
  decodeTransactionId,
  hexOf,
  TRANSACTION_EPOCH_S,
  transactionId,
} from '../../../../src/providers/x/transaction-id.ts';
import {
  animationFrames,
  keyByteIndices,
  mainScriptUrl,
  onDemandScriptUrl,
  queryIdsIn,
  verificationKey,
} from '../../../../src/providers/x/web-parse.ts';
import { readWebBundle } from '../../../../src/providers/x/web-bundle.ts';
import { startSimulator, type Simulator } from '../../../../sim/server.ts';
import { homePage, onDemandScript, SIM_KEY_INDICES, SIM_VERIFICATION_KEY } from '../../../../sim/x-web-bundle.ts';
import { DEFAULT_OPERATIONS } from '../../../../src/providers/x/operations.ts';

interface Vector {
  key: string;
  frames: string[];
  indices: number[];
  method: string;
  path: string;
  time: number;
  mask: number;
  animationKey: string;
  transactionId: string;
}
const VECTORS = JSON.parse(
  readFileSync(new URL('../../../fixtures/x/transaction-id-vectors.json', import.meta.url), 'utf8'),
) as Vector[];

describe('x-client-transaction-id', () => {
  for (const [i, v] of VECTORS.entries()) {
    it(`matches the reference implementation on vector ${i + 1}`, () => {
      const keyBytes = new Uint8Array(Buffer.from(v.key, 'base64'));
      const anim = animationKey(keyBytes, v.frames, v.indices);
      assert.equal(anim, v.animationKey);
      const id = transactionId(
        { keyBytes, animationKey: anim },
        v.method,
        v.path,
        (v.time + TRANSACTION_EPOCH_S) * 1000,
        v.mask,
      );
      assert.equal(id, v.transactionId);
      const decoded = decodeTransactionId(id)!;
      assert.deepEqual(Buffer.from(decoded.keyBytes), Buffer.from(keyBytes));
      assert.equal(decoded.time, v.time);
      assert.equal(decoded.trailer, 3);
    });
  }

  it('changes with method, path and time, and never carries padding', () => {
    const v = VECTORS[0]!;
    const inputs = { keyBytes: new Uint8Array(Buffer.from(v.key, 'base64')), animationKey: v.animationKey };
    const at = (v.time + TRANSACTION_EPOCH_S) * 1000;
    const ids = new Set([
      transactionId(inputs, 'GET', v.path, at, 7),
      transactionId(inputs, 'POST', v.path, at, 7),
      transactionId(inputs, 'GET', `${v.path}x`, at, 7),
      transactionId(inputs, 'GET', v.path, at + 1000, 7),
    ]);
    assert.equal(ids.size, 4);
    for (const id of ids) assert.match(id, /^[A-Za-z0-9+/]+$/);
  });

  it('spells numbers and timing curves as the web app does', () => {
    assert.equal(hexOf(0), '');
    assert.equal(hexOf(1), '1');
    assert.equal(hexOf(0.5), '.8');
    assert.equal(hexOf(255.25), 'FF.4');
    assert.equal(cubicBezier(0, 0, 1, 1, 0.5).toFixed(3), '0.500');
    assert.equal(cubicBezier(0.5, 1, 0.5, 1, 2), 1, 'past the end: the end slope');
    assert.equal(cubicBezier(0.5, 1, 0.5, 1, -1), -2, 'before the start: the start slope');
  });

  it('refuses inputs it cannot use instead of signing garbage', () => {
    const v = VECTORS[0]!;
    const key = new Uint8Array(Buffer.from(v.key, 'base64'));
    assert.throws(() => animationKey(key, v.frames.slice(0, 3), v.indices), /4 loading animation frames/);
    assert.throws(() => animationKey(key, v.frames, [1]), /fewer than 2/);
    assert.throws(() => animationKey(key.subarray(0, 10), v.frames, [40, 1]), /past the 10-byte key/);
    assert.equal(decodeTransactionId('not base64!'), undefined);
    assert.equal(decodeTransactionId('AAAA'), undefined);
  });
});

describe("reading X's web app", () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator();
  });
  after(() => sim.close());

  it('finds the main script, the verification key, four frames, the on-demand script and its indices', () => {
    const html = homePage();
    const main = mainScriptUrl(html, 'https://x.com/')!;
    assert.match(main, /^https:\/\/x\.com\/client-web\/main\.[a-z0-9]+\.js$/);
    assert.equal(verificationKey(html), SIM_VERIFICATION_KEY.toString('base64'));
    assert.equal(animationFrames(html).length, 4);
    assert.match(onDemandScriptUrl(html, main)!, /^https:\/\/x\.com\/client-web\/ondemand\.s\.[a-z0-9]+a\.js$/);
    assert.deepEqual(keyByteIndices(onDemandScript()), SIM_KEY_INDICES);
    assert.deepEqual(
      queryIdsIn(
        'a={queryId:"abc_DEF-123",operationName:"TweetDetail",operationType:"query"},b={queryId:"zzz",operationName:"Other"}',
      ),
      new Map([
        ['TweetDetail', 'abc_DEF-123'],
        ['Other', 'zzz'],
      ]),
    );
  });

  it('reads the simulator bundle over HTTP: every query id and usable signing inputs', async () => {
    const bundle = await readWebBundle(sim.xWebUrl, { timeoutMs: 2000 });
    assert.equal(bundle.transactionError, undefined);
    for (const [name, op] of Object.entries(DEFAULT_OPERATIONS)) assert.equal(bundle.queryIds.get(name), op.queryId);
    const id = transactionId(bundle.transaction!, 'GET', '/i/api/graphql/x/SearchTimeline');
    assert.deepEqual(Buffer.from(decodeTransactionId(id)!.keyBytes), SIM_VERIFICATION_KEY);
  });

  it('a home page without a main script is an error naming the page', async () => {
    await assert.rejects(
      readWebBundle(`${sim.url}/fx`, { timeoutMs: 2000 }),
      /x web bundle: .* answered HTTP 404|names no main script/,
    );
  });
});
