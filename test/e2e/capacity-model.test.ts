// The capacity model of docs/capacity.md checked against a simulated run with the real stores: each read class's
// cost is measured cold and warm, a realistic mix is run, and every formula's prediction (Redis commands and
// bytes, upstream calls per provider and bytes, hits) must land within 20 % of what Redis and the simulator
// counted; the X sessions formula must match the simulator's per-account windows.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startCapacityStack, SESSIONS, type CapacityStack } from '../../bench/lib/capacity-stack.ts';
import { calibrate, realisticMix, runMix, sessionsCheck, within } from '../../bench/lib/capacity-sim.ts';
import { TEST_BASE } from '../helpers/stack.ts';

describe('the capacity model against the simulator and a real Redis', () => {
  let s: CapacityStack;
  before(async () => {
    s = await startCapacityStack();
  });
  after(async () => {
    await s?.close();
  });

  test('every per-read formula within 20 % of the measured mix; the sessions formula exact', async () => {
    const classes = realisticMix(TEST_BASE, 40);
    const costs = await calibrate(s, classes);
    const run = await runMix(s, classes, costs, 300);
    assert.deepEqual(Object.keys(run.statuses), ['200'], JSON.stringify(run.statuses));
    assert.ok(run.hits > 100, `a mix with repeats: ${run.hits} hits`);
    const figures = run.comparisons.map((c) => c.figure);
    for (const f of ['Redis commands', 'Redis bytes (in + out)', 'upstream bytes', 'upstream calls (x)'])
      assert.ok(figures.includes(f), f);
    for (const c of run.comparisons)
      assert.ok(within(c, 0.2), `${c.figure}: predicted ${c.predicted.toFixed(1)}, measured ${c.measured}`);

    const xPerMiss = costs['media search']?.upstreamCalls.x ?? 0;
    assert.ok(xPerMiss > 0, 'the photos feed is account-backed');
    const windowCheck = await sessionsCheck(s, SESSIONS, 4, xPerMiss);
    assert.equal(windowCheck.refused, 1, 'refused once every window is spent');
    assert.ok(within(windowCheck, 0.2), JSON.stringify(windowCheck));
  });
});
