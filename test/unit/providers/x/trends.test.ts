// X's trending timeline (GenericTimelineById) read from twscrape's raw_trends captures of both years
// (test/fixtures/x/README.md says where each comes from): the 2025 plain topics with their counts, the 2026 answers
// with a frame item and a module of AI-written stories, one with a plain topic after them and one with none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTrendsTimeline, postCount } from '../../../../src/providers/x/trends.ts';
import { ProviderError } from '../../../../src/providers/types.ts';
import type { XEnvelope } from '../../../../src/providers/x/wire.ts';
import { fixture } from '../fixtures.ts';

const x = (name: string) => fixture<XEnvelope>(`x/${name}`);

describe('x parse: GenericTimelineById trends', () => {
  it('2025: trend- items with the context and the count of trend_metadata, no rank X did not give', () => {
    assert.deepEqual(parseTrendsTimeline(x('trends_2025.json')), [
      { name: 'Hield', context: 'Trending in Sports', posts: 1699 },
      { name: 'Shaq', context: 'Trending in Sports', posts: 12000 },
      { name: 'Chuck', context: 'Trending in Sports', posts: 37600 },
    ]);
  });

  it('2026: the frame item is skipped, stories come first with their page on X, a topic without a count has none', () => {
    const trends = parseTrendsTimeline(x('trends_2026.json'));
    assert.deepEqual(
      trends.map((t) => t.name),
      [
        "Knicks Win First NBA Title in 53 Years Behind Brunson's 45-Point Heroics",
        'Hurricanes Win 2026 Stanley Cup, Blank Vegas 3-0 in Game 6',
        'The UFC',
      ],
    );
    assert.deepEqual(trends[0], {
      name: "Knicks Win First NBA Title in 53 Years Behind Brunson's 45-Point Heroics",
      context: '1 day ago · Sports',
      posts: 70000,
      url: 'https://x.com/i/trending/2066094735882936480',
    });
    assert.deepEqual(trends[2], { name: 'The UFC', context: 'Sports · Trending' });
    assert.ok(trends[2] && !('posts' in trends[2]), 'no count is made up for a topic X did not count');
  });

  it('2026 with stories only: the stories are the list', () => {
    const trends = parseTrendsTimeline(x('trends_2026_stories_only.json'));
    assert.deepEqual(
      trends.map((t) => [t.posts, t.context, t.url]),
      [
        [152000, '1 day ago · Sports', 'https://x.com/i/trending/2079212121376645555'],
        [191000, '23 hours ago · News', 'https://x.com/i/trending/2079315723982196876'],
      ],
    );
  });

  it('keeps grouped topics and a rank X gives, names each trend once, and skips nameless items', () => {
    const item = (name: string | undefined, extra: object = {}) => ({
      entryId: `trend-${name}`,
      content: { entryType: 'TimelineTimelineItem', itemContent: { itemType: 'TimelineTrend', name, ...extra } },
    });
    const env = {
      data: {
        timeline: {
          timeline: {
            instructions: [
              {
                type: 'TimelineAddEntries',
                entries: [
                  item('#caching', { rank: '1', grouped_trends: [{ name: 'CDN' }, { name: ' ' }] }),
                  item('#Caching'),
                  item(undefined),
                  item('Redis', { trend_metadata: { meta_description: 'Trending with #caching' } }),
                ],
              },
            ],
          },
        },
      },
    } as XEnvelope;
    assert.deepEqual(parseTrendsTimeline(env), [
      { name: '#caching', rank: 1, related: ['CDN'] },
      { name: 'Redis', context: 'Trending with #caching' },
    ]);
  });

  it('an answer without the timeline is an error; its GraphQL error is named', () => {
    assert.throws(
      () => parseTrendsTimeline({ data: {} }),
      (e: unknown) => e instanceof ProviderError && e.kind === 'error',
    );
    assert.throws(
      () => parseTrendsTimeline({ errors: [{ code: 29, message: 'Timeout: Unspecified' }] }),
      (e: unknown) => e instanceof ProviderError && /Timeout: Unspecified \(code 29\)/.test(e.message),
    );
  });
});

describe('x parse: the counts X shows', () => {
  it('reads exact and rounded counts and nothing else', () => {
    const cases: [string, number | undefined][] = [
      ['1,699 posts', 1699],
      ['1 post', 1],
      ['12K posts', 12000],
      ['37.6K posts', 37600],
      ['4M posts', 4_000_000],
      ['1.25M posts', 1_250_000],
      ['Trending with #caching', undefined],
      ['12 K posts', undefined],
      ['1,69 posts', undefined],
      ['posts', undefined],
    ];
    for (const [s, n] of cases) assert.equal(postCount(s), n, s);
  });
});
