import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderPostMarkdown } from '../../../src/render/markdown/thread.ts';
import { bigRead, BASE } from '../../fixtures/render/corpus.ts';

function medianMs(f: () => unknown, runs = 40): number {
  for (let i = 0; i < 20; i++) f();
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    ts.push(performance.now() - t0);
  }
  ts.sort((a, b) => a - b);
  return ts[Math.floor(runs / 2)]!;
}

test('a 100-post conversation with 100 replies renders compact Markdown in well under 5 ms', () => {
  const read = bigRead(100, false);
  const opts = { full: false, userinfo: 'author' as const, baseUrl: BASE };
  const ms = medianMs(() => renderPostMarkdown(read, opts));
  assert.ok(ms < 5, `median ${ms.toFixed(2)} ms`);
});

test('escape-heavy hostile text does not blow up rendering time', () => {
  const read = bigRead(100, true);
  const opts = { full: true, userinfo: 'all' as const, baseUrl: BASE };
  const ms = medianMs(() => renderPostMarkdown(read, opts));
  assert.ok(ms < 15, `median ${ms.toFixed(2)} ms`);
});
