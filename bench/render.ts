// (4) Rendering a 100-post conversation (50 chain posts, 50 replies, generated domain model) in each
// representation, as the posts route presents it, against JSON.stringify of the same model.
// Goal: < 5 ms for compact Markdown.
import { bigRead, BASE } from '../test/fixtures/render/corpus.ts';
import { presentPost } from '../src/http/present/post.ts';
import { postCount } from '../src/domain/read-post.ts';
import type { PostReadOptions } from '../src/domain/reads.ts';
import type { Representation } from '../src/contract/representation.ts';
import type { BenchContext } from './lib/context.ts';
import type { BenchResult } from './lib/result.ts';
import { median, round } from './lib/stats.ts';

const ITERATIONS = 60;
const OPTS: PostReadOptions = {
  thread: 'full',
  context: 'full',
  replies: 'top',
  userinfo: 'author',
  full: false,
  nocache: false,
};
const CTX = { baseUrl: BASE, cache: 'hit' as const, cacheTtlS: 300, version: 'bench' };

function timeMs(f: () => unknown): number {
  for (let i = 0; i < 10; i++) f();
  const ts: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now();
    f();
    ts.push(performance.now() - t0);
  }
  return median(ts);
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const read = bigRead(50, false);
  const count = postCount(read);
  const cases: Array<[string, Representation, boolean]> = [
    ['markdownCompact', 'markdown', false],
    ['markdownFull', 'markdown', true],
    ['obsidian', 'obsidian', false],
    ['json', 'json', false],
    ['html', 'html', false],
  ];
  const rounds: Array<Record<string, number>> = [];
  for (let r = 0; r < ctx.rounds; r++) {
    const row: Record<string, number> = { jsonStringifyMs: round(timeMs(() => JSON.stringify(read))) };
    for (const [label, rep, full] of cases) {
      row[`${label}Ms`] = round(timeMs(() => presentPost(read, { ...OPTS, full }, rep, CTX)));
    }
    row.ratio = round(row.markdownCompactMs! / row.jsonStringifyMs!);
    rounds.push(row);
  }
  const med: Record<string, number> = {};
  for (const k of Object.keys(rounds[0]!)) med[k] = round(median(rounds.map((x) => x[k]!)));
  med.posts = count;
  med.compactBytes = Buffer.byteLength(presentPost(read, OPTS, 'markdown', CTX).body);
  return {
    name: 'render',
    goal: '< 5 ms to render a 100-post conversation as compact Markdown',
    met: med.markdownCompactMs! < 5,
    ratio: med.ratio!,
    ratioOf: 'compact Markdown render time ÷ JSON.stringify of the same domain model',
    median: med,
    rounds,
    notes: ['in-process, median of 60 renders per round after 10 warm-up renders'],
  };
}
