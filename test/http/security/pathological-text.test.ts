// Author-controlled text cannot make rendering slow. A loopback FxTwitter serves posts of
// 25,000 characters built to hit backtracking (long inner runs of spaces, newlines, tabs, a trailing t.co after
// spaces, unclosed brackets) and an article whose code block is a long run of newlines; every representation
// of each, through the real server, must come back within 1 s plus ten times what an ordinary post of the same
// length takes in the same run (the machine is shared and noisy). Quadratic trailing-whitespace or trailing-link
// patterns, or a quadratic code-block renderer, take orders of magnitude longer than that at this length.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { startStack, type Stack } from '../../helpers/stack.ts';

const FIXTURE = JSON.parse(
  readFileSync(new URL('../../fixtures/fxtwitter/v2-status-article-1900000000000000020.json', import.meta.url), 'utf8'),
) as {
  status: Record<string, unknown> & {
    article: { content: { entityMap: Array<{ key: string; value: { data: Record<string, unknown> } }> } };
  };
};
const N = 25_000;
const TEXTS: Record<string, string> = {
  warmUp: 'plain words '.repeat(N / 12),
  ordinary: 'plain words '.repeat(N / 12),
  spaces: 'a' + ' '.repeat(N) + 'b',
  newlines: 'a' + '\n'.repeat(N) + 'b',
  tabs: 'a' + '\t \n'.repeat(N / 3) + 'b',
  spacesThenLink: 'x' + ' '.repeat(N) + 'https://t.co/abc z',
  brackets: '['.repeat(N),
  angles: '<'.repeat(N),
};
const ids = Object.keys(TEXTS).map((_, i) => String(1_950_000_000_000_000_000n + BigInt(i)));
const ARTICLE_ID = '1950000000000000999';

function statusFor(id: string): unknown {
  if (id === ARTICLE_ID) {
    const status = structuredClone(FIXTURE.status);
    const md = status.article.content.entityMap.find((e) => e.key === '2')!;
    md.value.data.markdown = '```ts\n' + 'a' + '\n'.repeat(N) + 'b\n```';
    return { ...status, id };
  }
  const text = TEXTS[Object.keys(TEXTS)[ids.indexOf(id)]!]!;
  const { article: _drop, ...rest } = FIXTURE.status;
  return { ...rest, id, text, raw_text: { text, display_text_range: [0, text.length], facets: [] } };
}

let upstream: Server;
let s: Stack;
before(async () => {
  upstream = createServer((req, res) => {
    const id = /\/2\/(?:status|thread|conversation)\/(\d+)/.exec(req.url ?? '')?.[1];
    if (!id || (id !== ARTICLE_ID && !ids.includes(id)))
      return res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":404}');
    const status = statusFor(id);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ code: 200, status, thread: null, author: (status as { author: unknown }).author }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const port = (upstream.address() as { port: number }).port;
  s = await startStack({ THREADMARK_FXTWITTER_URL: `http://127.0.0.1:${port}`, THREADMARK_PROVIDERS: 'fxtwitter' });
});
after(async () => {
  await s.close();
  await new Promise((r) => upstream.close(r));
});

const BOUND_MS = 1000;
const VARIANTS = ['', '&full=true', '&format=obsidian', '&format=json'].flatMap((q) =>
  (q ? ['text/markdown'] : ['text/markdown', 'text/html']).map((accept) => ({ q, accept })),
);

/** Milliseconds for each representation of one post, in VARIANTS order; the first one includes the upstream read and parse. */
async function timings(id: string): Promise<number[]> {
  const out: number[] = [];
  for (const { q, accept } of VARIANTS) {
    const t0 = performance.now();
    const res = await s.get(`/api/v1/posts?handle=alice_dev&id=${id}&thread=off${q}`, { headers: { accept } });
    const body = await res.text();
    out.push(performance.now() - t0);
    assert.equal(res.status, 200, `${id}${q}: ${body.slice(0, 200)}`);
  }
  return out;
}

describe('pathological posts', () => {
  let baseline: number[] = [];
  before(async () => {
    await timings(ids[0]!);
    baseline = await timings(ids[1]!);
  });
  for (const id of [...ids.slice(2), ARTICLE_ID]) {
    test(`post ${id} renders in every representation within the bound`, async () => {
      const got = await timings(id);
      got.forEach((ms, i) => {
        const bound = BOUND_MS + 10 * baseline[i]!;
        assert.ok(
          ms < bound,
          `${id}${VARIANTS[i]!.q} as ${VARIANTS[i]!.accept}: ${ms.toFixed(0)} ms, bound ${bound.toFixed(0)} ms`,
        );
      });
    });
  }
});
